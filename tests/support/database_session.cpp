#include "support/database_session.hpp"

#include <libpq-fe.h>
#include <mysql.h>

#include <stdexcept>

namespace tapdiffgen::testing {

struct DatabaseSession::Native {
    PGconn* pg = nullptr;
    MYSQL* my = nullptr;
    ~Native() {
        if (pg != nullptr) PQfinish(pg);
        if (my != nullptr) mysql_close(my);
    }
};

DatabaseSession::DatabaseSession(const DatabaseEnv& env) : native_(std::make_unique<Native>()) {
    if (env.dialect == "postgres") {
        std::string conninfo = "host=" + env.host + " port=" + env.port + " user=" + env.user +
                               " password=" + env.password + " dbname=" + env.database;
        native_->pg = PQconnectdb(conninfo.c_str());
        if (PQstatus(native_->pg) != CONNECTION_OK) {
            throw std::runtime_error(PQerrorMessage(native_->pg));
        }
        return;
    }
    native_->my = mysql_init(nullptr);
    if (mysql_real_connect(native_->my, env.host.c_str(), env.user.c_str(), env.password.c_str(),
                           env.database.c_str(), static_cast<unsigned>(std::stoi(env.port)),
                           nullptr, 0) == nullptr) {
        throw std::runtime_error(mysql_error(native_->my));
    }
}

DatabaseSession::~DatabaseSession() = default;

void DatabaseSession::run(const std::string& sql) {
    if (native_->pg != nullptr) {
        PGresult* result = PQexec(native_->pg, sql.c_str());
        ExecStatusType status = PQresultStatus(result);
        std::string error = PQerrorMessage(native_->pg);
        PQclear(result);
        if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
            throw std::runtime_error("postgres: " + error + " in: " + sql);
        }
        return;
    }
    if (mysql_real_query(native_->my, sql.data(), sql.size()) != 0) {
        throw std::runtime_error("mysql: " + std::string(mysql_error(native_->my)) + " in: " + sql);
    }
    if (MYSQL_RES* result = mysql_store_result(native_->my)) mysql_free_result(result);
}

std::string DatabaseSession::value(const std::string& sql) {
    std::string text;
    if (native_->pg != nullptr) {
        PGresult* result = PQexec(native_->pg, sql.c_str());
        const bool ok = PQresultStatus(result) == PGRES_TUPLES_OK;
        if (ok && PQntuples(result) > 0) text = PQgetvalue(result, 0, 0);
        std::string error = PQerrorMessage(native_->pg);
        PQclear(result);
        if (!ok) throw std::runtime_error("postgres: " + error + " in: " + sql);
        return text;
    }
    if (mysql_real_query(native_->my, sql.data(), sql.size()) != 0) {
        throw std::runtime_error("mysql: " + std::string(mysql_error(native_->my)) + " in: " + sql);
    }
    MYSQL_RES* result = mysql_store_result(native_->my);
    if (result == nullptr) return text;
    MYSQL_ROW row = mysql_fetch_row(result);
    unsigned long* lengths = mysql_fetch_lengths(result);
    if (row != nullptr && row[0] != nullptr) text.assign(row[0], lengths[0]);
    mysql_free_result(result);
    return text;
}

}  // namespace tapdiffgen::testing

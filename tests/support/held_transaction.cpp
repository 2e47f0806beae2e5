#include "support/held_transaction.hpp"

#include <libpq-fe.h>
#include <mysql.h>

#include <stdexcept>

namespace tapdiffgen::testing {

struct HeldTransaction::Connection {
    PGconn* pg = nullptr;
    MYSQL* my = nullptr;

    void run(const std::string& sql) {
        if (pg != nullptr) {
            PGresult* result = PQexec(pg, sql.c_str());
            ExecStatusType status = PQresultStatus(result);
            std::string error = PQerrorMessage(pg);
            PQclear(result);
            if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
                throw std::runtime_error("postgres: " + error + " in: " + sql);
            }
            return;
        }
        if (mysql_real_query(my, sql.data(), sql.size()) != 0) {
            throw std::runtime_error("mysql: " + std::string(mysql_error(my)) + " in: " + sql);
        }
        if (MYSQL_RES* result = mysql_store_result(my)) mysql_free_result(result);
    }

    ~Connection() {
        if (pg != nullptr) PQfinish(pg);
        if (my != nullptr) mysql_close(my);
    }
};

HeldTransaction::HeldTransaction(const DatabaseEnv& env, const std::string& sql)
    : connection_(std::make_unique<Connection>()) {
    if (env.dialect == "postgres") {
        std::string conninfo = "host=" + env.host + " port=" + env.port + " user=" + env.user +
                               " password=" + env.password + " dbname=" + env.database;
        connection_->pg = PQconnectdb(conninfo.c_str());
        if (PQstatus(connection_->pg) != CONNECTION_OK) {
            throw std::runtime_error(PQerrorMessage(connection_->pg));
        }
    } else {
        connection_->my = mysql_init(nullptr);
        if (mysql_real_connect(connection_->my, env.host.c_str(), env.user.c_str(),
                               env.password.c_str(), env.database.c_str(),
                               static_cast<unsigned>(std::stoi(env.port)), nullptr, 0) == nullptr) {
            throw std::runtime_error(mysql_error(connection_->my));
        }
    }
    connection_->run("BEGIN");
    connection_->run(sql);
}

HeldTransaction::~HeldTransaction() {
    try {
        if (connection_) finish("ROLLBACK");
    } catch (...) {
    }
}

void HeldTransaction::commit() { finish("COMMIT"); }
void HeldTransaction::rollback() { finish("ROLLBACK"); }

void HeldTransaction::finish(const char* statement) {
    if (!connection_) return;
    connection_->run(statement);
    connection_.reset();
}

}  // namespace tapdiffgen::testing

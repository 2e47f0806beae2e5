#include "support/databases.hpp"

#include <libpq-fe.h>
#include <mysql.h>

#include <cstdlib>
#include <memory>
#include <stdexcept>

namespace tapdiffgen::testing {
namespace {

std::optional<DatabaseEnv> fromEnvironment(const std::string& prefix, const std::string& dialect) {
    auto get = [&](const char* suffix) -> std::string {
        const char* value = std::getenv((prefix + suffix).c_str());
        return value != nullptr ? value : "";
    };
    DatabaseEnv env{dialect,     get("HOST"),     get("PORT"),
                    get("USER"), get("PASSWORD"), get("DATABASE")};
    if (env.host.empty() || env.port.empty()) return std::nullopt;
    return env;
}

std::string jsonString(const std::string& text) {
    std::string out = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\') out.push_back('\\');
        out.push_back(c);
    }
    return out + "\"";
}

struct PgDeleter {
    void operator()(PGconn* c) const { PQfinish(c); }
};
struct PgResultDeleter {
    void operator()(PGresult* r) const { PQclear(r); }
};
struct MyDeleter {
    void operator()(MYSQL* c) const { mysql_close(c); }
};

std::unique_ptr<PGconn, PgDeleter> connectPostgres(const DatabaseEnv& env) {
    std::string conninfo = "host=" + env.host + " port=" + env.port + " user=" + env.user +
                           " password=" + env.password + " dbname=" + env.database +
                           " connect_timeout=10 client_encoding=UTF8";
    std::unique_ptr<PGconn, PgDeleter> conn(PQconnectdb(conninfo.c_str()));
    if (PQstatus(conn.get()) != CONNECTION_OK) {
        throw std::runtime_error("postgres connect: " + std::string(PQerrorMessage(conn.get())));
    }
    return conn;
}

std::unique_ptr<MYSQL, MyDeleter> connectMysql(const DatabaseEnv& env) {
    std::unique_ptr<MYSQL, MyDeleter> conn(mysql_init(nullptr));
    mysql_options(conn.get(), MYSQL_SET_CHARSET_NAME, "utf8mb4");
    if (mysql_real_connect(conn.get(), env.host.c_str(), env.user.c_str(), env.password.c_str(),
                           env.database.c_str(), static_cast<unsigned>(std::stoi(env.port)),
                           nullptr, CLIENT_MULTI_STATEMENTS) == nullptr) {
        throw std::runtime_error("mysql connect: " + std::string(mysql_error(conn.get())));
    }
    return conn;
}

// Runs sql and drains every result set; returns the first column of the first result set.
std::vector<std::optional<std::string>> runMysql(const DatabaseEnv& env, const std::string& sql) {
    auto conn = connectMysql(env);
    std::vector<std::optional<std::string>> column;
    bool first = true;
    if (mysql_real_query(conn.get(), sql.data(), sql.size()) != 0) {
        throw std::runtime_error("mysql: " + std::string(mysql_error(conn.get())) + " in: " + sql);
    }
    for (;;) {
        MYSQL_RES* result = mysql_store_result(conn.get());
        if (result != nullptr) {
            if (first) {
                while (MYSQL_ROW row = mysql_fetch_row(result)) {
                    unsigned long* lengths = mysql_fetch_lengths(result);
                    if (row[0] == nullptr) {
                        column.emplace_back(std::nullopt);
                    } else {
                        column.emplace_back(std::string(row[0], lengths[0]));
                    }
                }
                first = false;
            }
            mysql_free_result(result);
        } else if (mysql_field_count(conn.get()) != 0) {
            throw std::runtime_error("mysql: " + std::string(mysql_error(conn.get())));
        }
        int status = mysql_next_result(conn.get());
        if (status > 0) {
            throw std::runtime_error("mysql: " + std::string(mysql_error(conn.get())) +
                                     " in: " + sql);
        }
        if (status < 0) break;
    }
    return column;
}

std::vector<std::optional<std::string>> runPostgres(const DatabaseEnv& env,
                                                    const std::string& sql) {
    auto conn = connectPostgres(env);
    std::unique_ptr<PGresult, PgResultDeleter> result(PQexec(conn.get(), sql.c_str()));
    ExecStatusType status = PQresultStatus(result.get());
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
        throw std::runtime_error("postgres: " + std::string(PQerrorMessage(conn.get())) +
                                 " in: " + sql);
    }
    std::vector<std::optional<std::string>> column;
    if (status == PGRES_TUPLES_OK) {
        for (int row = 0; row < PQntuples(result.get()); ++row) {
            if (PQgetisnull(result.get(), row, 0)) {
                column.emplace_back(std::nullopt);
            } else {
                column.emplace_back(std::string(PQgetvalue(result.get(), row, 0),
                                                PQgetlength(result.get(), row, 0)));
            }
        }
    }
    return column;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> DatabaseEnv::options() const {
    return {{"sql_dialect", dialect}, {"host", host},         {"port", port},
            {"user", user},           {"password", password}, {"database", database}};
}

std::string DatabaseEnv::configPrefix() const {
    return "{\"sql_dialect\":" + jsonString(dialect) + ",\"host\":" + jsonString(host) +
           ",\"port\":" + port + ",\"user\":" + jsonString(user) +
           ",\"password\":" + jsonString(password) + ",\"database\":" + jsonString(database);
}

std::optional<DatabaseEnv> postgresEnv() { return fromEnvironment("TDG_TEST_PG_", "postgres"); }
std::optional<DatabaseEnv> mysqlEnv() { return fromEnvironment("TDG_TEST_MYSQL_", "mysql"); }
std::optional<DatabaseEnv> mysqlEastEnv() {
    return fromEnvironment("TDG_TEST_MYSQL_EAST_", "mysql");
}

bool ciMode() {
    const char* ci = std::getenv("CI");
    return ci != nullptr && std::string(ci) == "true";
}

void exec(const DatabaseEnv& env, const std::string& sql) { queryColumn(env, sql); }

std::vector<std::optional<std::string>> queryColumn(const DatabaseEnv& env,
                                                    const std::string& sql) {
    return env.dialect == "postgres" ? runPostgres(env, sql) : runMysql(env, sql);
}

std::string queryScalar(const DatabaseEnv& env, const std::string& sql) {
    auto column = queryColumn(env, sql);
    if (column.empty()) throw std::runtime_error("no row returned by: " + sql);
    return column[0].value_or("NULL");
}

}  // namespace tapdiffgen::testing

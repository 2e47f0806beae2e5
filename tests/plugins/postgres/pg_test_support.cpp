#include "pg_test_support.hpp"

#include <cstdlib>
#include <stdexcept>
#include <utility>

#include "plugin/plugin_loader.hpp"

namespace tapdiffgen::pgtest {

std::shared_ptr<const core::Plugin> plugin() {
    static std::shared_ptr<const core::Plugin> loaded =
        core::loadPluginFile(TDG_POSTGRES_PLUGIN_PATH);
    return loaded;
}

std::unique_ptr<core::DialectConnection> connect(const testing::DatabaseEnv& env,
                                                 const testing::PluginOptions& extra,
                                                 std::shared_ptr<testing::LogLines> log) {
    return testing::connectDatabase(plugin(), env, extra, std::move(log));
}

core::DialectError connectFailure(const testing::DatabaseEnv& env,
                                  const testing::PluginOptions& extra) {
    return testing::dialectErrorOf([&] { connect(env, extra); }, "connect succeeded");
}

RawSession::RawSession(const testing::DatabaseEnv& env) {
    const char* keywords[] = {"host", "port", "user", "password", "dbname", nullptr};
    const char* values[] = {env.host.c_str(),     env.port.c_str(),     env.user.c_str(),
                            env.password.c_str(), env.database.c_str(), nullptr};
    connection_ = PQconnectdbParams(keywords, values, 0);
    if (PQstatus(connection_) != CONNECTION_OK) {
        std::string message = PQerrorMessage(connection_);
        PQfinish(connection_);
        throw std::runtime_error("raw session: " + message);
    }
}

std::unique_ptr<RawSession> RawSession::admin(const std::string& database) {
    const char* socketDir = std::getenv("TDG_TEST_PG_SOCKET_DIR");
    const char* port = std::getenv("TDG_TEST_PG_PORT");
    if (socketDir == nullptr || port == nullptr) return nullptr;
    const char* keywords[] = {"host", "port", "user", "dbname", nullptr};
    const char* values[] = {socketDir, port, "postgres", database.c_str(), nullptr};
    PGconn* connection = PQconnectdbParams(keywords, values, 0);
    if (PQstatus(connection) != CONNECTION_OK) {
        PQfinish(connection);
        return nullptr;
    }
    return std::unique_ptr<RawSession>(new RawSession(connection));
}

RawSession::~RawSession() { PQfinish(connection_); }

std::string RawSession::scalar(const std::string& sql) {
    std::shared_ptr<PGresult> result(PQexec(connection_, sql.c_str()), &PQclear);
    if (PQresultStatus(result.get()) != PGRES_TUPLES_OK || PQntuples(result.get()) == 0) {
        throw std::runtime_error("raw session: no row from " + sql + ": " +
                                 PQerrorMessage(connection_));
    }
    return PQgetvalue(result.get(), 0, 0);
}

void RawSession::exec(const std::string& sql) {
    PGresult* result = PQexec(connection_, sql.c_str());
    ExecStatusType status = PQresultStatus(result);
    PQclear(result);
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
        throw std::runtime_error("raw session: " + std::string(PQerrorMessage(connection_)));
    }
}

std::shared_ptr<PGresult> RawSession::queryBinary(const std::string& sql) {
    std::shared_ptr<PGresult> result(
        PQexecParams(connection_, sql.c_str(), 0, nullptr, nullptr, nullptr, nullptr, 1), &PQclear);
    if (PQresultStatus(result.get()) != PGRES_TUPLES_OK) {
        throw std::runtime_error("raw session: " + std::string(PQerrorMessage(connection_)));
    }
    return result;
}

int tapSessionsInState(const testing::DatabaseEnv& env, const std::string& state) {
    return std::stoi(testing::queryScalar(
        env,
        "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'tap-diffgen'"
        " AND datname = current_database() AND state = '" +
            state + "'"));
}

}  // namespace tapdiffgen::pgtest

// Connecting, errors, session state and cancellation.
#include <doctest/doctest.h>

#include <chrono>
#include <cstring>
#include <future>
#include <thread>

#include "pg_test_support.hpp"

using namespace tapdiffgen;

TEST_CASE("the plugin's info block names the dialect and its alias") {
    const TdgPluginInfo& info = pgtest::plugin()->info();
    CHECK(std::string(info.dialect_name) == "postgres");
    REQUIRE(info.aliases != nullptr);
    CHECK(std::string(info.aliases[0]) == "postgresql");
    CHECK(info.aliases[1] == nullptr);
    CHECK(std::string(info.description) == "PostgreSQL 10+ via libpq");
    CHECK((pgtest::plugin()->driver().check_horizon != nullptr));
    CHECK((pgtest::plugin()->driver().cancel != nullptr));
}

TEST_CASE("server version") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    auto connection = pgtest::connect(db);
    std::string version = connection->serverVersion();
    CHECK(version.rfind("PostgreSQL 1", 0) == 0);
    CHECK(version.find(' ', std::strlen("PostgreSQL ")) == std::string::npos);
}

TEST_CASE("a wrong password is UNAUTHENTICATED and never echoed") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    const std::string secret = "wrong pass 'with' \"quotes\" and spaces";
    auto failure = pgtest::connectFailure(db, {{"password", secret}});
    CHECK(failure.status() == TDG_UNAUTHENTICATED);
    CHECK(failure.sqlstate() == "28P01");
    CHECK_FALSE(failure.retryable());
    std::string message = failure.what();
    CHECK(message.find("password authentication failed") != std::string::npos);
    CHECK(message.find("wrong pass") == std::string::npos);
    CHECK(message.find('\n') == std::string::npos);
}

TEST_CASE("an unknown user is UNAUTHENTICATED") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    auto failure = pgtest::connectFailure(db, {{"user", "tdg_pg_nobody"}});
    CHECK(failure.status() == TDG_UNAUTHENTICATED);
}

TEST_CASE("an unknown database is NOT_FOUND") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    auto failure = pgtest::connectFailure(db, {{"database", "tdg_pg_no_such_db"}});
    CHECK(failure.status() == TDG_NOT_FOUND);
    CHECK(failure.sqlstate() == "3D000");
    CHECK(std::string(failure.what()).find("tdg_pg_no_such_db") != std::string::npos);
}

TEST_CASE("an unreachable server is a retryable IO error") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    // Port 1 on the loopback refuses at once.
    auto failure = pgtest::connectFailure(db, {{"port", "1"}, {"connect_timeout", "3"}});
    CHECK(failure.status() == TDG_IO);
    CHECK(failure.retryable());
}

TEST_CASE("bad settings are INVALID_ARGUMENT") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    CHECK(pgtest::connectFailure(db, {{"ssl_mode", "sometimes"}}).status() == TDG_INVALID_ARGUMENT);
    CHECK(pgtest::connectFailure(db, {{"port", "many"}}).status() == TDG_INVALID_ARGUMENT);
    CHECK(pgtest::connectFailure(db, {{"port", "70000"}}).status() == TDG_INVALID_ARGUMENT);
    CHECK(pgtest::connectFailure(db, {{"connect_timeout", "0"}}).status() == TDG_INVALID_ARGUMENT);
}

TEST_CASE("sessions are named tap-diffgen and never left idle in transaction") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    testing::exec(db, R"SQL(
DROP TABLE IF EXISTS tdg_pg_idle;
DROP TABLE IF EXISTS tdg_pg_idle_log;
CREATE TABLE tdg_pg_idle (id int PRIMARY KEY, v text);
INSERT INTO tdg_pg_idle SELECT g, 'v' || g FROM generate_series(1, 50) g;
CREATE TABLE tdg_pg_idle_log (id bigint PRIMARY KEY, tablename text, table_id text, op text,
                              ts_created timestamp);
INSERT INTO tdg_pg_idle_log VALUES (1, 'tdg_pg_idle', '1', 'i', now());
)SQL");
    auto connection = pgtest::connect(db);
    connection->describeTable({"", "tdg_pg_idle"});
    auto page =
        connection->readDiffgenPage({"", "tdg_pg_idle_log"}, 0, INT64_MAX, 10, {"tdg_pg_idle"});
    TdgHorizonMark mark = page.mark();
    connection->checkHorizon(mark);
    connection->maxDiffgenId({"", "tdg_pg_idle_log"});
    testing::Collector collected;
    connection->fetchRows({"", "tdg_pg_idle"}, {"id", "v"}, "id", {"1", "2"}, collected.callback());
    connection->scanTable({"", "tdg_pg_idle"}, {"id", "v"}, "id", 7, collected.callback());
    // A reader that stops mid-stream leaves the session usable and idle too.
    CHECK_THROWS_AS(
        connection->scanTable({"", "tdg_pg_idle"}, {"id", "v"}, "id", 50,
                              [](const TdgRowBatch&) { throw std::runtime_error("stop"); }),
        std::runtime_error);
    CHECK(connection->maxDiffgenId({"", "tdg_pg_idle_log"}) == 1);

    CHECK(pgtest::tapSessionsInState(db, "idle in transaction") == 0);
    CHECK(pgtest::tapSessionsInState(db, "idle in transaction (aborted)") == 0);
    // This connection's last statement identifies it: it is connected and plainly idle.
    CHECK(testing::queryScalar(db,
                               "SELECT string_agg(state, ',') FROM pg_stat_activity"
                               " WHERE application_name = 'tap-diffgen'"
                               " AND query LIKE '%max(\"id\")%tdg_pg_idle_log%'") == "idle");
}

TEST_CASE("cancel stops a running read and leaves the connection usable") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    testing::exec(db, R"SQL(
DROP VIEW IF EXISTS tdg_pg_slow;
CREATE VIEW tdg_pg_slow AS
    SELECT g AS id, pg_sleep(0.2)::text AS nap FROM generate_series(1, 100) g;
)SQL");
    auto connection = pgtest::connect(db);
    auto started = std::chrono::steady_clock::now();
    auto reader = std::async(std::launch::async, [&] {
        testing::Collector collected;
        try {
            connection->scanTable({"", "tdg_pg_slow"}, {"id", "nap"}, "id", 1000,
                                  collected.callback());
        } catch (const core::DialectError& failure) {
            return failure.status();
        }
        return TDG_OK;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    connection->cancel();
    CHECK(reader.get() == TDG_CANCELLED);
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(10));
    CHECK(connection->serverVersion().rfind("PostgreSQL", 0) == 0);
    CHECK_FALSE(connection->describeTable({"", "tdg_pg_slow"}).empty());
}

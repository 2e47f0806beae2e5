// The connection: version, authentication and network failures, settings validation, the
// session leaving no transaction behind, and cancel. TLS has test_tls.cpp.
#include <doctest/doctest.h>

#include <chrono>
#include <thread>

#include "mysql_test_support.hpp"

using namespace tapdiffgen;

TEST_CASE("mysql session: the plugin describes itself and the server") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    auto plugin = mytest::plugin();
    CHECK(plugin->dialect() == "mysql");
    CHECK(plugin->aliases() == std::vector<std::string>{"mariadb"});
    CHECK(std::string(plugin->info().description) ==
          "MySQL 8.0.17+ / MariaDB 10.5+ via libmariadb");

    auto conn = mytest::connect(db);
    std::string version = conn->serverVersion();
    std::string expected = testing::queryScalar(db, "SELECT VERSION()");
    CHECK(version.rfind("MariaDB ", 0) == 0);
    CHECK(expected.rfind(version.substr(8), 0) == 0);
}

TEST_CASE("mysql session: a wrong password is UNAUTHENTICATED and never shown") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    const std::string secret = "Wr0ng-Secret-Pass";
    core::DialectError error = mytest::connectError(db, {{"password", secret}});
    CHECK(error.status() == TDG_UNAUTHENTICATED);
    CHECK_FALSE(error.retryable());
    CHECK(error.sqlstate() == "28000");
    std::string message = error.what();
    CHECK(message.find(secret) == std::string::npos);
    CHECK(message.find("Access denied") != std::string::npos);

    // A user name that happens to equal the password is still masked, wherever it appears.
    core::DialectError echoed = mytest::connectError(db, {{"user", secret}, {"password", secret}});
    CHECK(std::string(echoed.what()).find(secret) == std::string::npos);
}

TEST_CASE("mysql session: an unknown database is NOT_FOUND, a closed port is IO") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    // The server only says "unknown database" to users who could see every database...
    TDG_REQUIRE_MYSQL_ADMIN(admin);
    admin->exec(R"SQL(
CREATE USER IF NOT EXISTS 'tdg_my_global'@'127.0.0.1' IDENTIFIED BY 'gl-secret-1';
GRANT SELECT ON *.* TO 'tdg_my_global'@'127.0.0.1';
)SQL");
    core::DialectError unknown = mytest::connectError(db, {{"user", "tdg_my_global"},
                                                           {"password", "gl-secret-1"},
                                                           {"database", "tdg_my_no_such_db"}});
    CHECK(unknown.status() == TDG_NOT_FOUND);
    CHECK(unknown.sqlstate() == "42000");
    CHECK(std::string(unknown.what()).find("tdg_my_no_such_db") != std::string::npos);
    // ...to others a database they may not use looks the same as a missing one.
    core::DialectError hidden = mytest::connectError(db, {{"database", "tdg_my_no_such_db"}});
    CHECK(hidden.status() == TDG_UNAUTHORIZED);
    CHECK(std::string(hidden.what()).find("tdg_my_no_such_db") != std::string::npos);

    core::DialectError refused = mytest::connectError(db, {{"port", "1"}});
    CHECK(refused.status() == TDG_IO);
    CHECK(refused.retryable());
}

TEST_CASE("mysql session: bad settings are INVALID_ARGUMENT") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    CHECK(mytest::connectError(db, {{"ssl_mode", "sometimes"}}).status() == TDG_INVALID_ARGUMENT);
    CHECK(mytest::connectError(db, {{"port", "http"}}).status() == TDG_INVALID_ARGUMENT);
    CHECK(mytest::connectError(db, {{"port", "70000"}}).status() == TDG_INVALID_ARGUMENT);
    CHECK(mytest::connectError(db, {{"connect_timeout", "0"}}).status() == TDG_INVALID_ARGUMENT);

    // TLS settings that cannot work are refused before the client library sees them.
    core::DialectError noCa = mytest::connectError(db, {{"ssl_mode", "verify-ca"}});
    CHECK(noCa.status() == TDG_INVALID_ARGUMENT);
    CHECK(std::string(noCa.what()).find("ssl_mode verify-ca needs ssl_root_cert") !=
          std::string::npos);
    for (const char* alone : {"ssl_cert", "ssl_key"}) {
        core::DialectError half = mytest::connectError(db, {{alone, "/nonexistent.pem"}});
        CHECK(half.status() == TDG_INVALID_ARGUMENT);
        CHECK(std::string(half.what()).find("ssl_cert and ssl_key must be given together") !=
              std::string::npos);
    }
}

TEST_CASE("mysql session: reads leave no transaction open") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    TDG_REQUIRE_MYSQL_ADMIN(admin);
    // A database of its own makes the plugin's connection recognisable in the process list.
    admin->exec(R"SQL(
CREATE DATABASE IF NOT EXISTS tdg_my_probe CHARACTER SET utf8mb4;
GRANT ALL ON tdg_my_probe.* TO 'tap'@'127.0.0.1', 'tap'@'localhost';
DROP TABLE IF EXISTS tdg_my_probe.items, tdg_my_probe.diffgen;
CREATE TABLE tdg_my_probe.items (id INT PRIMARY KEY, v VARCHAR(10)) ENGINE = InnoDB;
INSERT INTO tdg_my_probe.items VALUES (1, 'a'), (2, 'b');
CREATE TABLE tdg_my_probe.diffgen (id BIGINT AUTO_INCREMENT PRIMARY KEY, tablename VARCHAR(64),
  table_id BIGINT, op CHAR(1), ts_created DATETIME) ENGINE = InnoDB;
INSERT INTO tdg_my_probe.diffgen (tablename, table_id, op) VALUES ('items', 1, 'i');
)SQL");
    auto conn = mytest::connect(db, {{"database", "tdg_my_probe"}});
    conn->describeTable({"", "items"});
    auto page = conn->readDiffgenPage({"", "diffgen"}, 0, INT64_MAX, 10, {"items"});
    TdgHorizonMark mark = page.mark();
    conn->checkHorizon(mark);
    conn->maxDiffgenId({"", "diffgen"});
    testing::Collector rows;
    conn->fetchRows({"", "items"}, {"id", "v"}, "id", {"1", "2"}, rows.callback());
    conn->scanTable({"", "items"}, {"id", "v"}, "id", 1, rows.callback());
    CHECK(rows.rows.size() == 4);

    auto threads = admin->column(
        "SELECT id FROM information_schema.PROCESSLIST WHERE db = 'tdg_my_probe' AND user = 'tap'");
    REQUIRE(threads.size() == 1);
    // INNODB_TRX is a copy refilled only after 100 ms without a read; the horizon check just
    // read it (with its own, since committed, transaction in it).
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
    CHECK(admin->scalar("SELECT COUNT(*) FROM information_schema.INNODB_TRX "
                        "WHERE trx_mysql_thread_id = " +
                        *threads[0]) == "0");
    // An open transaction would hold metadata locks on what it read: DDL would wait for them.
    CHECK_NOTHROW(
        admin->exec("SET SESSION lock_wait_timeout = 3; "
                    "ALTER TABLE tdg_my_probe.items COMMENT = 'probe'; "
                    "ALTER TABLE tdg_my_probe.diffgen COMMENT = 'probe'"));
    // And the session is what the plugin promises: read-only, UTC, utf8mb4, autocommit.
    // (Checked through the tap's own reads: a TIMESTAMP written at -05:00 reads as UTC.)
    admin->exec(R"SQL(
SET SESSION time_zone = '-05:00';
DROP TABLE IF EXISTS tdg_my_probe.zone;
CREATE TABLE tdg_my_probe.zone (id INT PRIMARY KEY, at TIMESTAMP NULL, n VARCHAR(5));
INSERT INTO tdg_my_probe.zone VALUES (1, '2024-03-01 19:00:00', '😀');
)SQL");
    testing::Collector zone;
    conn->fetchRows({"", "zone"}, {"id", "at", "n"}, "id", {"1"}, zone.callback());
    CHECK(zone.rows ==
          testing::Rows{{"INT64:1", "TIMESTAMPTZ:2024-03-02T00:00:00.000000+00:00", "TEXT:😀"}});
}

TEST_CASE("mysql session: cancel stops a running statement and the connection survives") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    testing::exec(db, R"SQL(
DROP VIEW IF EXISTS tdg_my_slow;
DROP TABLE IF EXISTS tdg_my_slow_base;
CREATE TABLE tdg_my_slow_base (id INT PRIMARY KEY);
INSERT INTO tdg_my_slow_base VALUES (1), (2);
CREATE VIEW tdg_my_slow AS SELECT id, SLEEP(20) AS waited FROM tdg_my_slow_base;
)SQL");
    auto conn = mytest::connect(db);
    std::thread canceller([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        conn->cancel();
    });
    auto started = std::chrono::steady_clock::now();
    TdgStatus status = TDG_OK;
    try {
        testing::Collector rows;
        conn->fetchRows({"", "tdg_my_slow"}, {"id", "waited"}, "id", {"1"}, rows.callback());
    } catch (const core::DialectError& error) {
        status = error.status();
    }
    canceller.join();
    auto elapsed = std::chrono::steady_clock::now() - started;
    CHECK(status == TDG_CANCELLED);
    CHECK(elapsed < std::chrono::seconds(10));

    // The next call is not affected by the earlier cancel.
    testing::Collector after;
    conn->fetchRows({"", "tdg_my_slow_base"}, {"id"}, "id", {"2"}, after.callback());
    CHECK(after.rows == testing::Rows{{"INT64:2"}});
}

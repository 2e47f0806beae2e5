// Naming: reserved and mixed-case identifiers, identifiers with backticks, tables in another
// database, and missing tables.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>

#include "mysql_test_support.hpp"

using namespace tapdiffgen;

TEST_CASE("mysql catalog: reserved, mixed-case and backticked identifiers are quoted") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    testing::exec(db, R"SQL(
DROP TABLE IF EXISTS `Order`, `order`, `tdg my``odd`;
CREATE TABLE `Order` (`select` INT PRIMARY KEY, `From` VARCHAR(10), `a``b` INT);
CREATE TABLE `order` (x INT PRIMARY KEY);
CREATE TABLE `tdg my``odd` (`key` VARCHAR(10) PRIMARY KEY, `Value` INT);
INSERT INTO `Order` VALUES (1, 'one', 10), (2, 'two', 20), (3, NULL, NULL);
INSERT INTO `tdg my``odd` VALUES ('k1', 1), ('k2', 2);
)SQL");
    auto conn = mytest::connect(db);

    auto columns = conn->describeTable({"", "Order"});
    REQUIRE(columns.size() == 3);
    CHECK(columns[0].name == "select");
    CHECK(columns[0].primaryKey);
    CHECK(columns[1].name == "From");
    CHECK(columns[2].name == "a`b");
    // Table names are case-sensitive on this server: `order` is another table.
    auto lower = conn->describeTable({"", "order"});
    REQUIRE(lower.size() == 1);
    CHECK(lower[0].name == "x");

    testing::Collector fetched;
    conn->fetchRows({"", "Order"}, {"select", "From", "a`b"}, "select", {"1", "3", "4"},
                    fetched.callback());
    std::sort(fetched.rows.begin(), fetched.rows.end());
    CHECK(fetched.rows ==
          testing::Rows{{"INT64:1", "TEXT:one", "INT64:10"}, {"INT64:3", "NULL", "NULL"}});

    testing::Collector scanned;
    conn->scanTable({"", "Order"}, {"From", "select"}, "select", 2, scanned.callback());
    CHECK(scanned.rows ==
          testing::Rows{{"TEXT:one", "INT64:1"}, {"TEXT:two", "INT64:2"}, {"NULL", "INT64:3"}});

    auto odd = conn->describeTable({"", "tdg my`odd"});
    REQUIRE(odd.size() == 2);
    testing::Collector oddRows;
    conn->scanTable({"", "tdg my`odd"}, {"key", "Value"}, "key", 1, oddRows.callback());
    CHECK(oddRows.rows == testing::Rows{{"TEXT:k1", "INT64:1"}, {"TEXT:k2", "INT64:2"}});
}

TEST_CASE("mysql catalog: a table in another database is reached by its schema") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    TDG_REQUIRE_MYSQL_ADMIN(admin);
    admin->exec(R"SQL(
CREATE DATABASE IF NOT EXISTS tdg_my_other CHARACTER SET utf8mb4;
GRANT ALL ON tdg_my_other.* TO 'tap'@'127.0.0.1', 'tap'@'localhost';
DROP TABLE IF EXISTS tdg_my_other.tdg_my_elsewhere;
DROP TABLE IF EXISTS tdg_my_other.diffgen;
CREATE TABLE tdg_my_other.tdg_my_elsewhere (id BIGINT PRIMARY KEY, note VARCHAR(20));
INSERT INTO tdg_my_other.tdg_my_elsewhere VALUES (7, 'seven'), (8, 'eight');
CREATE TABLE tdg_my_other.diffgen (id BIGINT AUTO_INCREMENT PRIMARY KEY,
  tablename VARCHAR(64), table_id VARCHAR(64), op CHAR(1), ts_created DATETIME(6));
INSERT INTO tdg_my_other.diffgen (tablename, table_id, op) VALUES ('tdg_my_elsewhere', '7', 'u');
)SQL");
    auto conn = mytest::connect(db);

    // Not in the connection's database...
    CHECK_THROWS_AS(conn->describeTable({"", "tdg_my_elsewhere"}), core::DialectError);
    // ...but by its schema.
    auto columns = conn->describeTable({"tdg_my_other", "tdg_my_elsewhere"});
    REQUIRE(columns.size() == 2);
    CHECK(columns[0].primaryKey);

    testing::Collector fetched;
    conn->fetchRows({"tdg_my_other", "tdg_my_elsewhere"}, {"id", "note"}, "id", {"8"},
                    fetched.callback());
    CHECK(fetched.rows == testing::Rows{{"INT64:8", "TEXT:eight"}});

    testing::Collector scanned;
    conn->scanTable({"tdg_my_other", "tdg_my_elsewhere"}, {"id"}, "id", 10, scanned.callback());
    CHECK(scanned.rows == testing::Rows{{"INT64:7"}, {"INT64:8"}});

    CHECK(conn->maxDiffgenId({"tdg_my_other", "diffgen"}) == 1);
    auto page =
        conn->readDiffgenPage({"tdg_my_other", "diffgen"}, 0, INT64_MAX, 10, {"tdg_my_elsewhere"});
    REQUIRE(page.size() == 1);
    CHECK(std::string(page[0].table_id) == "7");
}

TEST_CASE("mysql catalog: a missing table is NOT_FOUND and named") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    auto conn = mytest::connect(db);

    try {
        conn->describeTable({"", "tdg_my_no_such_table"});
        FAIL("describe of a missing table succeeded");
    } catch (const core::DialectError& error) {
        CHECK(error.status() == TDG_NOT_FOUND);
        CHECK(std::string(error.what()) == "table 'tdg_my_no_such_table' does not exist");
    }
    try {
        conn->describeTable({"tdg_my_no_such_db", "t"});
        FAIL("describe in a missing database succeeded");
    } catch (const core::DialectError& error) {
        CHECK(error.status() == TDG_NOT_FOUND);
        CHECK(std::string(error.what()).find("tdg_my_no_such_db.t") != std::string::npos);
    }
    try {
        testing::Collector ignored;
        conn->fetchRows({"", "tdg_my_no_such_table"}, {"id"}, "id", {"1"}, ignored.callback());
        FAIL("fetch from a missing table succeeded");
    } catch (const core::DialectError& error) {
        CHECK(error.status() == TDG_NOT_FOUND);
        CHECK(std::string(error.what()).find("tdg_my_no_such_table") != std::string::npos);
    }
    // The connection is still usable after the failures.
    CHECK_FALSE(conn->serverVersion().empty());
}

TEST_CASE("mysql catalog: without a database, unqualified names are NOT_FOUND") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    auto conn = mytest::connect(db, {{"database", ""}});
    try {
        conn->describeTable({"", "tdg_my_types"});
        FAIL("describe without a database succeeded");
    } catch (const core::DialectError& error) {
        CHECK(error.status() == TDG_NOT_FOUND);
        CHECK(std::string(error.what()).find("'tdg_my_types'") != std::string::npos);
    }
    testing::exec(db, "CREATE TABLE IF NOT EXISTS tdg_my_qualified (id INT PRIMARY KEY)");
    CHECK(conn->describeTable({db.database, "tdg_my_qualified"}).size() == 1);
}

TEST_CASE("mysql catalog: describe_tables describes many tables in one call, each as one by one") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    testing::exec(db, R"SQL(
DROP TABLE IF EXISTS tdg_many_a, tdg_many_b, `Tdg_Many_B`, tdg_many_json;
CREATE TABLE tdg_many_a (id INT PRIMARY KEY, note TEXT, amount DECIMAL(7,2));
CREATE TABLE tdg_many_b (code VARCHAR(10) PRIMARY KEY, at DATETIME(6) NOT NULL);
CREATE TABLE `Tdg_Many_B` (other BIGINT PRIMARY KEY);
CREATE TABLE tdg_many_json (id INT PRIMARY KEY, doc JSON, body LONGTEXT);
)SQL");
    auto conn = mytest::connect(db);
    const std::vector<core::TableRef> tables = {{"", "tdg_many_a"},
                                                {"", "tdg_many_b"},
                                                {"", "Tdg_Many_B"},
                                                {"", "tdg_many_json"},
                                                {db.database, "tdg_many_a"}};
    const auto described = conn->describeTables(tables);
    REQUIRE(described.size() == tables.size());
    for (size_t i = 0; i < tables.size(); ++i) {
        CAPTURE(i);
        CHECK_FALSE(described[i].empty());
        CHECK(testing::describedText(described[i]) ==
              testing::describedText(conn->describeTable(tables[i])));
    }
    // Two tables whose names differ only in case stay apart.
    CHECK(testing::columnNames(described[1]) == std::vector<std::string>{"code", "at"});
    CHECK(testing::columnNames(described[2]) == std::vector<std::string>{"other"});
    // MariaDB's JSON is LONGTEXT with a json_valid check, found for the batch too.
    CHECK(described[3][1].kind == TDG_KIND_JSON);
    CHECK(described[3][2].kind == TDG_KIND_TEXT);

    std::string message;
    CHECK(testing::statusOf(
              [&] {
                  conn->describeTables({{"", "tdg_many_a"}, {"", "tdg_many_nosuch"}});
              },
              &message) == TDG_NOT_FOUND);
    CHECK(message.find("table 'tdg_many_nosuch' does not exist") != std::string::npos);
}

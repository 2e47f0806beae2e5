// describe_table name resolution: quoting, schemas, the search_path, missing tables, dropped
// columns.
#include <doctest/doctest.h>

#include "pg_test_support.hpp"

using namespace tapdiffgen;
using testing::columnNames;
using testing::statusOf;

TEST_CASE("mixed-case and reserved-word table and column names") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    testing::exec(db, R"SQL(
DROP TABLE IF EXISTS "tdg_pg_Order";
DROP TABLE IF EXISTS "select";
CREATE TABLE "tdg_pg_Order" ("Id" int PRIMARY KEY, "select" text, "Key ""Col""" int);
CREATE TABLE "select" ("from" int PRIMARY KEY, "where" text);
INSERT INTO "tdg_pg_Order" VALUES (1, 'a', 10), (2, 'b', 20);
INSERT INTO "select" VALUES (7, 'w');
)SQL");
    auto connection = pgtest::connect(db);
    auto columns = connection->describeTable({"", "tdg_pg_Order"});
    CHECK(columnNames(columns) == std::vector<std::string>{"Id", "select", "Key \"Col\""});
    CHECK(columns[0].primaryKey);

    testing::Collector collected;
    connection->fetchRows({"", "tdg_pg_Order"}, {"Id", "select", "Key \"Col\""}, "Id", {"2"},
                          collected.callback());
    CHECK(collected.rows == testing::Rows{{"INT64:2", "TEXT:b", "INT64:20"}});

    CHECK(columnNames(connection->describeTable({"", "select"})) ==
          std::vector<std::string>{"from", "where"});
    testing::Collector scanned;
    connection->scanTable({"", "select"}, {"where", "from"}, "from", 10, scanned.callback());
    CHECK(scanned.rows == testing::Rows{{"TEXT:w", "INT64:7"}});

    // Names are exact: the folded spelling is another table.
    CHECK(statusOf([&] { connection->describeTable({"", "tdg_pg_order"}); }) == TDG_NOT_FOUND);
}

TEST_CASE("schema-qualified names in a non-public schema, and the search_path") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    testing::exec(db, R"SQL(
DROP SCHEMA IF EXISTS "tdg_pg My Schema" CASCADE;
CREATE SCHEMA "tdg_pg My Schema";
CREATE TABLE "tdg_pg My Schema"."Table" (k text PRIMARY KEY, v int);
INSERT INTO "tdg_pg My Schema"."Table" VALUES ('a', 1), ('b', 2);
)SQL");
    auto connection = pgtest::connect(db);
    auto columns = connection->describeTable({"tdg_pg My Schema", "Table"});
    CHECK(columnNames(columns) == std::vector<std::string>{"k", "v"});

    testing::Collector fetched;
    connection->fetchRows({"tdg_pg My Schema", "Table"}, {"k", "v"}, "k", {"b", "zz"},
                          fetched.callback());
    CHECK(fetched.rows == testing::Rows{{"TEXT:b", "INT64:2"}});

    testing::Collector scanned;
    connection->scanTable({"tdg_pg My Schema", "Table"}, {"k", "v"}, "k", 1, scanned.callback());
    CHECK(scanned.rows == testing::Rows{{"TEXT:a", "INT64:1"}, {"TEXT:b", "INT64:2"}});

    // Not on the search_path: without the schema the table is not there.
    std::string message;
    CHECK(statusOf([&] { connection->describeTable({"", "Table"}); }, &message) == TDG_NOT_FOUND);
    CHECK(message == "table 'Table' does not exist");
}

TEST_CASE("missing tables and schemas are NOT_FOUND, a missing column TABLE_CHANGED, naming them") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    testing::exec(db, R"SQL(
DROP TABLE IF EXISTS tdg_pg_cols;
CREATE TABLE tdg_pg_cols (id int PRIMARY KEY, a text);
)SQL");
    auto connection = pgtest::connect(db);
    std::string message;
    CHECK(statusOf(
              [&] {
                  connection->describeTable({"", "tdg_pg_missing"});
              },
              &message) == TDG_NOT_FOUND);
    CHECK(message == "table 'tdg_pg_missing' does not exist");
    CHECK(statusOf(
              [&] {
                  connection->describeTable({"tdg_pg_no_schema", "t"});
              },
              &message) == TDG_NOT_FOUND);
    CHECK(message == "table 'tdg_pg_no_schema.t' does not exist");

    testing::Collector ignored;
    CHECK(statusOf(
              [&] {
                  connection->fetchRows({"", "tdg_pg_cols"}, {"id", "nope"}, "id", {"1"},
                                        ignored.callback());
              },
              &message) == TDG_TABLE_CHANGED);
    CHECK(message == "table 'tdg_pg_cols' changed under the read: column 'nope' does not exist");
    CHECK(
        statusOf([&] {
            connection->fetchRows({"", "tdg_pg_missing"}, {"id"}, "id", {"1"}, ignored.callback());
        }) == TDG_NOT_FOUND);
    CHECK(statusOf([&] {
              connection->scanTable({"", "tdg_pg_missing"}, {"id"}, "id", 10, ignored.callback());
          }) == TDG_NOT_FOUND);
}

TEST_CASE("dropped columns are skipped and ordinals follow the table") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    testing::exec(db, R"SQL(
DROP TABLE IF EXISTS tdg_pg_dropped;
CREATE TABLE tdg_pg_dropped (id int PRIMARY KEY, gone text, kept numeric(5,1) NOT NULL);
ALTER TABLE tdg_pg_dropped DROP COLUMN gone;
INSERT INTO tdg_pg_dropped VALUES (1, 2.5);
)SQL");
    auto connection = pgtest::connect(db);
    auto columns = connection->describeTable({"", "tdg_pg_dropped"});
    REQUIRE(columns.size() == 2);
    CHECK(columns[0].name == "id");
    CHECK(columns[0].ordinal == 1);
    CHECK(columns[1].name == "kept");
    CHECK(columns[1].ordinal == 3);
    CHECK_FALSE(columns[1].nullable);
    CHECK(columns[1].precision == 5);
    CHECK(columns[1].scale == 1);

    testing::Collector collected;
    connection->fetchRows({"", "tdg_pg_dropped"}, {"id", "kept"}, "id", {"1"},
                          collected.callback());
    CHECK(collected.rows == testing::Rows{{"INT64:1", "DECIMAL:2.5"}});
}

TEST_CASE("a table changed after it was described is read with its new shape") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    testing::exec(db, R"SQL(
DROP TABLE IF EXISTS tdg_pg_altered;
CREATE TABLE tdg_pg_altered (id int PRIMARY KEY, v int);
INSERT INTO tdg_pg_altered VALUES (1, 10);
)SQL");
    auto connection = pgtest::connect(db);
    testing::Collector before;
    connection->fetchRows({"", "tdg_pg_altered"}, {"id", "v"}, "id", {"1"}, before.callback());
    CHECK(before.rows == testing::Rows{{"INT64:1", "INT64:10"}});

    testing::exec(db,
                  "ALTER TABLE tdg_pg_altered ALTER COLUMN v TYPE text USING 'v' || v;"
                  "ALTER TABLE tdg_pg_altered ADD COLUMN w int DEFAULT 5");
    testing::Collector after;
    connection->fetchRows({"", "tdg_pg_altered"}, {"id", "v", "w"}, "id", {"1"}, after.callback());
    CHECK(after.rows == testing::Rows{{"INT64:1", "TEXT:v10", "INT64:5"}});
}

TEST_CASE("views are described and read like tables") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    testing::exec(db, R"SQL(
DROP VIEW IF EXISTS tdg_pg_view;
DROP TABLE IF EXISTS tdg_pg_view_base;
CREATE TABLE tdg_pg_view_base (id int PRIMARY KEY, v text);
INSERT INTO tdg_pg_view_base VALUES (1, 'one'), (2, 'two');
CREATE VIEW tdg_pg_view AS SELECT id, upper(v) AS v FROM tdg_pg_view_base;
)SQL");
    auto connection = pgtest::connect(db);
    CHECK(columnNames(connection->describeTable({"", "tdg_pg_view"})) ==
          std::vector<std::string>{"id", "v"});
    testing::Collector collected;
    connection->fetchRows({"", "tdg_pg_view"}, {"id", "v"}, "id", {"2"}, collected.callback());
    CHECK(collected.rows == testing::Rows{{"INT64:2", "TEXT:TWO"}});
}

TEST_CASE("describe_tables describes many tables in one call, each as describe_table does") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    testing::exec(db, R"SQL(
DROP SCHEMA IF EXISTS tdg_pg_many CASCADE;
DROP TABLE IF EXISTS tdg_pg_many_b, "tdg_pg_Many_C";
CREATE SCHEMA tdg_pg_many;
CREATE TABLE tdg_pg_many.a (id int PRIMARY KEY, note text, amount numeric(7,2));
CREATE TABLE tdg_pg_many_b (code text PRIMARY KEY, at timestamptz NOT NULL, tags int[]);
CREATE TABLE "tdg_pg_Many_C" (k1 int, k2 text, doc jsonb, PRIMARY KEY (k1, k2));
)SQL");
    auto connection = pgtest::connect(db);
    const std::vector<core::TableRef> tables = {
        {"tdg_pg_many", "a"}, {"", "tdg_pg_many_b"}, {"", "tdg_pg_Many_C"}, {"tdg_pg_many", "a"}};
    const auto described = connection->describeTables(tables);
    REQUIRE(described.size() == tables.size());
    for (size_t i = 0; i < tables.size(); ++i) {
        CAPTURE(i);
        CHECK_FALSE(described[i].empty());
        CHECK(testing::describedText(described[i]) ==
              testing::describedText(connection->describeTable(tables[i])));
    }
    CHECK(columnNames(described[2]) == std::vector<std::string>{"k1", "k2", "doc"});

    std::string message;
    CHECK(statusOf(
              [&] {
                  connection->describeTables(
                      {{"", "tdg_pg_many_b"}, {"", "tdg_pg_nosuch"}, {"tdg_pg_many", "nosuch"}});
              },
              &message) == TDG_NOT_FOUND);
    CHECK(message.find("table 'tdg_pg_nosuch' does not exist") != std::string::npos);
    CHECK(connection->describeTables({}).empty());
}

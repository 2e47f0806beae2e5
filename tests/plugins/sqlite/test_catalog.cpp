// describe_table and names: mixed-case and reserved-word identifiers, schema = attached
// database, missing tables and columns, views, generated columns, and a column added while
// the connection is open.
#include <doctest/doctest.h>

#include "sqlite_test_support.hpp"

using namespace tapdiffgen;
using testing::columnNames;

namespace {

const char* kOddNames = R"SQL(
CREATE TABLE "Order" ("Select" INTEGER PRIMARY KEY, "group" TEXT NOT NULL, "a""b c" NUMERIC(5,1),
                      "MixedCase" TEXT);
INSERT INTO "Order" VALUES (1, 'g1', 2.5, 'M1'), (2, 'g2', NULL, NULL);
)SQL";

}  // namespace

TEST_CASE("mixed-case and reserved-word identifiers are described and read exactly") {
    sqlitetest::TempDatabase db;
    db.exec(kOddNames);
    auto connection = sqlitetest::connect(db.path());
    auto columns = connection->describeTable({"", "Order"});
    CHECK(columnNames(columns) ==
          std::vector<std::string>{"Select", "group", "a\"b c", "MixedCase"});
    CHECK(columns[0].primaryKey);
    CHECK_FALSE(columns[1].nullable);
    CHECK(columns[2].scale == 1);

    testing::Collector fetched;
    connection->fetchRows({"", "Order"}, {"a\"b c", "Select", "MixedCase", "group"}, "Select",
                          {"2", "1"}, fetched.callback());
    CHECK(fetched.rows.size() == 2);
    testing::Rows scanned = sqlitetest::scanAll(*connection, "Order", "Select", 1);
    CHECK(scanned == testing::Rows{{"INT64:1", "TEXT:g1", "DECIMAL:2.5", "TEXT:M1"},
                                   {"INT64:2", "TEXT:g2", "NULL", "NULL"}});
}

TEST_CASE("the schema is the attached database name, unqualified names search main") {
    sqlitetest::TempDatabase db;
    db.exec(kOddNames);
    auto connection = sqlitetest::connect(db.path());
    CHECK(connection->describeTable({"main", "Order"}).size() == 4);
    testing::Collector rows;
    connection->fetchRows({"main", "Order"}, {"Select"}, "Select", {"1"}, rows.callback());
    CHECK(rows.rows == testing::Rows{{"INT64:1"}});

    std::string message;
    CHECK(testing::statusOf(
              [&] {
                  connection->describeTable({"nosuch", "Order"});
              },
              &message) == TDG_NOT_FOUND);
    CHECK(message.find("nosuch") != std::string::npos);
}

TEST_CASE("a missing table is NOT_FOUND naming it, for every call that reads it") {
    sqlitetest::TempDatabase db;
    db.exec(kOddNames);
    auto connection = sqlitetest::connect(db.path());
    std::string message;
    CHECK(testing::statusOf(
              [&] {
                  connection->describeTable({"", "missing_table"});
              },
              &message) == TDG_NOT_FOUND);
    CHECK(message.find("'missing_table'") != std::string::npos);

    auto fetch = [&] {
        testing::Collector rows;
        connection->fetchRows({"", "missing_table"}, {"id"}, "id", {"1"}, rows.callback());
    };
    CHECK(testing::statusOf(fetch, &message) == TDG_NOT_FOUND);
    CHECK(message.find("'missing_table'") != std::string::npos);
    CHECK(testing::statusOf([&] {
              connection->maxDiffgenId({"", "missing_log"});
          }) == TDG_NOT_FOUND);
    CHECK(testing::statusOf([&] {
              connection->readDiffgenPage({"", "missing_log"}, 0, INT64_MAX, 10, {"a"});
          }) == TDG_NOT_FOUND);
}

TEST_CASE("a missing column is NOT_FOUND naming it, a column added later is found") {
    sqlitetest::TempDatabase db;
    db.exec(kOddNames);
    auto connection = sqlitetest::connect(db.path());
    connection->describeTable({"", "Order"});

    std::string message;
    auto fetchMissing = [&] {
        testing::Collector rows;
        connection->fetchRows({"", "Order"}, {"Select", "nope"}, "Select", {"1"}, rows.callback());
    };
    CHECK(testing::statusOf(fetchMissing, &message) == TDG_NOT_FOUND);
    CHECK(message.find("'nope'") != std::string::npos);

    db.exec(R"(ALTER TABLE "Order" ADD COLUMN added_later DATE DEFAULT '2024-01-01')");
    testing::Collector rows;
    connection->fetchRows({"", "Order"}, {"Select", "added_later"}, "Select", {"1"},
                          rows.callback());
    CHECK(rows.rows == testing::Rows{{"INT64:1", "DATE:2024-01-01"}});
}

TEST_CASE("views, generated columns and text keys of WITHOUT ROWID tables") {
    sqlitetest::TempDatabase db;
    db.exec(R"SQL(
CREATE TABLE gen (id INTEGER PRIMARY KEY, a INTEGER,
                  twice INTEGER GENERATED ALWAYS AS (a * 2) VIRTUAL);
INSERT INTO gen (id, a) VALUES (1, 21);
CREATE VIEW gen_view AS SELECT id, a FROM gen;
CREATE TABLE coded (code TEXT PRIMARY KEY, label TEXT) WITHOUT ROWID;
INSERT INTO coded VALUES ('o''brien', 'quote'), ('b', 'plain'), ('😀', 'emoji');
CREATE TABLE loose (code TEXT PRIMARY KEY, label TEXT);
)SQL");
    auto connection = sqlitetest::connect(db.path());
    auto generated = connection->describeTable({"", "gen"});
    CHECK(columnNames(generated) == std::vector<std::string>{"id", "a", "twice"});
    CHECK(sqlitetest::scanAll(*connection, "gen", "id") ==
          testing::Rows{{"INT64:1", "INT64:21", "INT64:42"}});

    auto view = connection->describeTable({"", "gen_view"});
    CHECK(columnNames(view) == std::vector<std::string>{"id", "a"});
    CHECK_FALSE(view[0].primaryKey);

    auto coded = connection->describeTable({"", "coded"});
    CHECK(coded[0].primaryKey);
    CHECK_FALSE(coded[0].nullable);  // WITHOUT ROWID keys are NOT NULL
    testing::Collector rows;
    connection->fetchRows({"", "coded"}, {"code", "label"}, "code", {"o'brien", "😀", "zz"},
                          rows.callback());
    CHECK(rows.rows.size() == 2);

    // A rowid table's non-integer key may hold NULL unless declared NOT NULL (SQLite quirk).
    auto loose = connection->describeTable({"", "loose"});
    CHECK(loose[0].primaryKey);
    CHECK(loose[0].nullable);
}

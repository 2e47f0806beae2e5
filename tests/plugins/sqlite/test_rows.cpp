// Row reads: fetch with missing and non-integer keys, chunks past 500 keys, batch bounds,
// scan in key order across pages, cancel, a sink that stops, and no read transaction left
// open afterwards.
#include <doctest/doctest.h>

#include <algorithm>
#include <stdexcept>

#include "sqlite_test_support.hpp"

using namespace tapdiffgen;

namespace {

// ids 1..n, name "row <id>".
void createNumbered(sqlitetest::TempDatabase& db, int n) {
    db.exec(R"SQL(
CREATE TABLE numbered (id INTEGER PRIMARY KEY, name TEXT);
WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < )SQL" +
            std::to_string(n) + R"SQL()
INSERT INTO numbered SELECT i, 'row ' || i FROM seq;
)SQL");
}

std::vector<int> idsOf(const testing::Rows& rows) {
    std::vector<int> ids;
    for (const auto& row : rows) ids.push_back(std::stoi(row.at(0).substr(6)));  // "INT64:"
    std::sort(ids.begin(), ids.end());
    return ids;
}

// Fails when any connection still holds a read transaction on the file.
void requireNoOpenRead(const sqlitetest::TempDatabase& db) {
    sqlitetest::Writer writer(db.path());
    writer.exec("BEGIN EXCLUSIVE; ROLLBACK;");
}

}  // namespace

TEST_CASE("fetch returns the rows that exist and skips missing and malformed keys") {
    sqlitetest::TempDatabase db;
    createNumbered(db, 10);
    auto connection = sqlitetest::connect(db.path());
    testing::Collector rows;
    connection->fetchRows({"", "numbered"}, {"id", "name"}, "id",
                          {"3", "99", "1", "abc", "", "-0", "3"}, rows.callback());
    CHECK(idsOf(rows.rows) == std::vector<int>{1, 3});
    CHECK(std::find(rows.rows.begin(), rows.rows.end(),
                    std::vector<std::string>{"INT64:3", "TEXT:row 3"}) != rows.rows.end());

    testing::Collector none;
    connection->fetchRows({"", "numbered"}, {"id"}, "id", {}, none.callback());
    CHECK(none.rows.empty());
    requireNoOpenRead(db);
}

TEST_CASE("fetch splits many keys into chunks and bounds every batch") {
    sqlitetest::TempDatabase db;
    createNumbered(db, 1500);
    auto connection = sqlitetest::connect(db.path());
    std::vector<std::string> keys;
    for (int i = 1; i <= 1203; ++i) keys.push_back(std::to_string(i * 2 - 1));  // 1203 odd ids
    testing::Collector rows;
    connection->fetchRows({"", "numbered"}, {"id", "name"}, "id", keys, rows.callback(), 100);
    std::vector<int> expected;
    for (int i = 1; i <= 1499; i += 2) expected.push_back(i);
    CHECK(idsOf(rows.rows) == expected);
    for (int64_t size : rows.batchSizes) CHECK(size <= 100);

    // The same chunk sizes again: served by the statements prepared the first time.
    testing::Collector again;
    connection->fetchRows({"", "numbered"}, {"id", "name"}, "id", keys, again.callback(), 100);
    CHECK(again.rows.size() == rows.rows.size());
}

TEST_CASE("scan reads every row once in key order across pages, skipping NULL keys") {
    sqlitetest::TempDatabase db;
    db.exec(R"SQL(
CREATE TABLE words (w TEXT PRIMARY KEY, n INTEGER);
INSERT INTO words VALUES ('pear', 1), ('apple', 2), ('fig', 3), ('Zebra', 4), ('kiwi', 5),
                         ('banana', 6), ('date', 7), (NULL, 8);
)SQL");
    auto connection = sqlitetest::connect(db.path());
    testing::Collector rows;
    connection->scanTable({"", "words"}, {"w", "n"}, "w", 3, rows.callback());
    CHECK(testing::firstColumn(rows.rows) ==
          std::vector<std::string>{"TEXT:Zebra", "TEXT:apple", "TEXT:banana", "TEXT:date",
                                   "TEXT:fig", "TEXT:kiwi", "TEXT:pear"});
    for (int64_t size : rows.batchSizes) CHECK(size <= 3);

    createNumbered(db, 2500);
    testing::Collector numbers;
    connection->scanTable({"", "numbered"}, {"name", "id"}, "id", 1000, numbers.callback());
    REQUIRE(numbers.rows.size() == 2500);
    CHECK(numbers.rows.front() == std::vector<std::string>{"TEXT:row 1", "INT64:1"});
    CHECK(numbers.rows.back() == std::vector<std::string>{"TEXT:row 2500", "INT64:2500"});
    requireNoOpenRead(db);
}

TEST_CASE("cancel interrupts a running read, the connection stays usable") {
    sqlitetest::TempDatabase db;
    createNumbered(db, 50);
    auto connection = sqlitetest::connect(db.path());
    std::vector<std::string> keys;
    for (int i = 1; i <= 50; ++i) keys.push_back(std::to_string(i));
    auto cancelling = [&](const TdgRowBatch&) { connection->cancel(); };
    CHECK(testing::statusOf([&] {
              connection->fetchRows({"", "numbered"}, {"id"}, "id", keys, cancelling, 5);
          }) == TDG_CANCELLED);
    CHECK(testing::statusOf([&] {
              connection->scanTable({"", "numbered"}, {"id"}, "id", 5, cancelling);
          }) == TDG_CANCELLED);

    testing::Collector rows;
    connection->fetchRows({"", "numbered"}, {"id"}, "id", keys, rows.callback(), 5);
    CHECK(rows.rows.size() == 50);
    requireNoOpenRead(db);
}

TEST_CASE("a sink that stops the read leaves no read transaction open") {
    sqlitetest::TempDatabase db;
    createNumbered(db, 50);
    auto connection = sqlitetest::connect(db.path());
    auto stopping = [](const TdgRowBatch&) { throw std::runtime_error("enough"); };
    CHECK_THROWS_WITH(connection->scanTable({"", "numbered"}, {"id"}, "id", 5, stopping), "enough");
    requireNoOpenRead(db);
    testing::Collector rows;
    connection->scanTable({"", "numbered"}, {"id"}, "id", 5, rows.callback());
    CHECK(rows.rows.size() == 50);
}

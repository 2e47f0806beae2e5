// fetch_rows and scan_table: missing and repeated keys, string keys, NULLs, bad keys, a
// 100,000-key batch in bounded batches, keyset pages, and a reader that stops the stream.
#include <doctest/doctest.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "mysql_test_support.hpp"
#include "plugins/support/dense_key_replay.hpp"

using namespace tapdiffgen;

namespace {

std::vector<std::string> rangeKeys(int from, int to) {
    std::vector<std::string> keys;
    for (int i = from; i <= to; ++i) keys.push_back(std::to_string(i));
    return keys;
}

void createNumbers(const testing::DatabaseEnv& db, const std::string& table) {
    // seq_1_to_N is MariaDB's sequence engine.
    testing::exec(db, mytest::withTable(R"SQL(
DROP TABLE IF EXISTS @T;
CREATE TABLE @T (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL, note TEXT NULL);
INSERT INTO @T SELECT seq, CONCAT('n', seq), IF(seq % 3 = 0, NULL, 'x') FROM seq_1_to_100000;
)SQL",
                                        table));
}

}  // namespace

TEST_CASE("mysql rows: fetch returns the rows that exist, once each") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    createNumbers(db, "tdg_my_numbers_1");
    auto conn = mytest::connect(db);

    testing::Collector collector;
    conn->fetchRows({"", "tdg_my_numbers_1"}, {"id", "name", "note"}, "id",
                    {"1", "3", "999999", "3", "100000", "-5"}, collector.callback());
    std::sort(collector.rows.begin(), collector.rows.end());
    CHECK(collector.rows == testing::Rows{{"INT64:1", "TEXT:n1", "TEXT:x"},
                                          {"INT64:100000", "TEXT:n100000", "TEXT:x"},
                                          {"INT64:3", "TEXT:n3", "NULL"}});

    testing::Collector nothing;
    conn->fetchRows({"", "tdg_my_numbers_1"}, {"id"}, "id", {}, nothing.callback());
    CHECK(nothing.rows.empty());
    conn->fetchRows({"", "tdg_my_numbers_1"}, {"id"}, "id", {"0"}, nothing.callback());
    CHECK(nothing.rows.empty());
}

TEST_CASE("mysql rows: a 100,000-key batch streams in bounded batches") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    createNumbers(db, "tdg_my_numbers_2");
    auto conn = mytest::connect(db);

    std::vector<std::string> keys = rangeKeys(1, 100000);
    keys.push_back("100001");  // missing
    int64_t rows = 0;
    int64_t largest = 0;
    int64_t sum = 0;
    conn->fetchRows(
        {"", "tdg_my_numbers_2"}, {"id", "name"}, "id", keys,
        [&](const TdgRowBatch& batch) {
            rows += batch.num_rows;
            largest = std::max(largest, batch.num_rows);
            for (int64_t r = 0; r < batch.num_rows; ++r) sum += batch.cells[r * 2].i64;
        },
        5000);
    CHECK(rows == 100000);
    CHECK(largest <= 5000);
    CHECK(sum == int64_t{100000} * 100001 / 2);
}

TEST_CASE("mysql rows: statements dropped from the full cache are prepared again when needed") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    createNumbers(db, "tdg_my_numbers_cache");
    auto conn = mytest::connect(db);
    // Eleven column orders times two list sizes (2048 and 4096 placeholders): 67,584
    // placeholders, more than the cache holds, so the early shapes are dropped on the way.
    const std::vector<std::vector<std::string>> shapes = {{"id"},
                                                          {"id", "name"},
                                                          {"id", "note"},
                                                          {"name", "id"},
                                                          {"note", "id"},
                                                          {"id", "name", "note"},
                                                          {"id", "note", "name"},
                                                          {"name", "id", "note"},
                                                          {"name", "note", "id"},
                                                          {"note", "id", "name"},
                                                          {"note", "name", "id"}};
    for (int round = 0; round < 2; ++round) {
        for (const auto& columns : shapes) {
            for (int keys : {1500, 3000}) {
                const size_t idAt =
                    std::find(columns.begin(), columns.end(), "id") - columns.begin();
                int64_t rows = 0, sum = 0;
                conn->fetchRows({"", "tdg_my_numbers_cache"}, columns, "id", rangeKeys(1, keys),
                                [&](const TdgRowBatch& batch) {
                                    rows += batch.num_rows;
                                    for (int64_t r = 0; r < batch.num_rows; ++r) {
                                        sum += batch.cells[r * batch.num_columns + idAt].i64;
                                    }
                                });
                CHECK(rows == keys);
                CHECK(sum == int64_t{keys} * (keys + 1) / 2);
            }
        }
    }
}

TEST_CASE("mysql rows: a run of consecutive integer keys returns exactly the rows asked for") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    createNumbers(db, "tdg_my_numbers_run");
    testing::exec(db, "DELETE FROM tdg_my_numbers_run WHERE id BETWEEN 60 AND 69");
    auto conn = mytest::connect(db);
    const auto fetched = [&](const std::string& table, const std::vector<std::string>& keys) {
        testing::Collector collected;
        conn->fetchRows({"", table}, {"id"}, "id", keys, collected.callback());
        std::vector<std::string> ids;
        for (const auto& row : collected.rows) ids.push_back(row[0]);
        std::sort(ids.begin(), ids.end());
        return ids;
    };
    std::vector<std::string> keys = {"150", "7", "999999"};
    std::vector<std::string> expected = {"INT64:150", "INT64:7"};
    for (int k = 50; k <= 120; ++k) {
        keys.push_back(std::to_string(k));
        if (k < 60 || k > 69) expected.push_back("INT64:" + std::to_string(k));
    }
    std::sort(expected.begin(), expected.end());
    CHECK(fetched("tdg_my_numbers_run", keys) == expected);
    // Only the run: the key list is padded with the run's first key.
    std::vector<std::string> runOnly = rangeKeys(1000, 1063);
    std::vector<std::string> runRows;
    for (const auto& key : runOnly) runRows.push_back("INT64:" + key);
    std::sort(runRows.begin(), runRows.end());
    CHECK(fetched("tdg_my_numbers_run", runOnly) == runRows);

    // Digits in a text key are texts: '007' is not key 7, whatever a numeric range would say.
    testing::exec(db, mytest::withTable(R"SQL(
DROP TABLE IF EXISTS @T;
CREATE TABLE @T (id VARCHAR(10) PRIMARY KEY);
INSERT INTO @T SELECT seq FROM seq_1_to_100;
INSERT INTO @T VALUES ('007'), ('7.0');
)SQL",
                                        "tdg_my_text_digits"));
    std::vector<std::string> textRows;
    for (const auto& key : rangeKeys(1, 40)) textRows.push_back("TEXT:" + key);
    std::sort(textRows.begin(), textRows.end());
    CHECK(fetched("tdg_my_text_digits", rangeKeys(1, 40)) == textRows);
}

TEST_CASE("mysql rows: string keys are bound as text, exactly") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    testing::exec(db, R"SQL(
DROP TABLE IF EXISTS tdg_my_strkeys;
CREATE TABLE tdg_my_strkeys (k VARCHAR(20) COLLATE utf8mb4_bin PRIMARY KEY, v INT)
  DEFAULT CHARSET = utf8mb4;
INSERT INTO tdg_my_strkeys VALUES ('a', 1), ('B', 2), ('ü', 3), ('😀', 4), ('it''s', 5),
  ('', 6), ('1', 7);
)SQL");
    auto conn = mytest::connect(db);

    testing::Collector collector;
    conn->fetchRows({"", "tdg_my_strkeys"}, {"k", "v"}, "k",
                    {"a", "b", "😀", "it's", "", "zz", "1", "' OR '1'='1"}, collector.callback());
    std::sort(collector.rows.begin(), collector.rows.end());
    CHECK(collector.rows == testing::Rows{{"TEXT:", "INT64:6"},
                                          {"TEXT:1", "INT64:7"},
                                          {"TEXT:a", "INT64:1"},
                                          {"TEXT:it's", "INT64:5"},
                                          {"TEXT:😀", "INT64:4"}});

    testing::Collector scanned;
    conn->scanTable({"", "tdg_my_strkeys"}, {"k"}, "k", 2, scanned.callback());
    CHECK(testing::firstColumn(scanned.rows) ==
          std::vector<std::string>{"TEXT:", "TEXT:1", "TEXT:B", "TEXT:a", "TEXT:it's", "TEXT:ü",
                                   "TEXT:😀"});
}

TEST_CASE("mysql rows: a key that is not an integer is INVALID_DATA for an integer key") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    createNumbers(db, "tdg_my_numbers_4");
    auto conn = mytest::connect(db);
    testing::Collector ignored;
    try {
        conn->fetchRows({"", "tdg_my_numbers_4"}, {"id"}, "id", {"1", "12abc"}, ignored.callback());
        FAIL("a non-integer key was accepted");
    } catch (const core::DialectError& error) {
        CHECK(error.status() == TDG_INVALID_DATA);
        CHECK(std::string(error.what()).find("12abc") != std::string::npos);
    }
    try {
        conn->fetchRows({"", "tdg_my_numbers_4"}, {"name"}, "id", {"1"}, ignored.callback());
        FAIL("a key column outside the requested columns was accepted");
    } catch (const core::DialectError& error) {
        CHECK(error.status() == TDG_INVALID_ARGUMENT);
    }
}

TEST_CASE("mysql rows: scan pages through the table in key order") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    testing::exec(db, R"SQL(
DROP TABLE IF EXISTS tdg_my_scan;
CREATE TABLE tdg_my_scan (id BIGINT UNSIGNED PRIMARY KEY, v VARCHAR(10));
INSERT INTO tdg_my_scan SELECT seq * 10, CONCAT('v', seq) FROM seq_1_to_2500;
INSERT INTO tdg_my_scan VALUES (18446744073709551615, 'max');
DROP TABLE IF EXISTS tdg_my_scan_dt;
CREATE TABLE tdg_my_scan_dt (at DATETIME(6) PRIMARY KEY, v INT);
INSERT INTO tdg_my_scan_dt VALUES ('2024-01-01 00:00:00.000001', 1),
  ('2024-01-01 00:00:00.000002', 2), ('2023-12-31 23:59:59', 0), ('2024-01-01', 3);
DROP TABLE IF EXISTS tdg_my_scan_empty;
CREATE TABLE tdg_my_scan_empty (id INT PRIMARY KEY);
)SQL");
    auto conn = mytest::connect(db);

    testing::Collector collector;
    conn->scanTable({"", "tdg_my_scan"}, {"id", "v"}, "id", 1000, collector.callback());
    REQUIRE(collector.rows.size() == 2501);
    CHECK(collector.batchSizes == std::vector<int64_t>{1000, 1000, 501});
    CHECK(collector.rows[0] == std::vector<std::string>{"DECIMAL:10", "TEXT:v1"});
    CHECK(collector.rows[2499] == std::vector<std::string>{"DECIMAL:25000", "TEXT:v2500"});
    CHECK(collector.rows[2500] ==
          std::vector<std::string>{"DECIMAL:18446744073709551615", "TEXT:max"});

    // A page boundary exactly at the end: the last page is empty.
    testing::Collector exact;
    conn->scanTable({"", "tdg_my_scan"}, {"id"}, "id", 2501, exact.callback());
    CHECK(exact.rows.size() == 2501);

    testing::Collector dated;
    conn->scanTable({"", "tdg_my_scan_dt"}, {"v", "at"}, "at", 1, dated.callback());
    CHECK(dated.rows == testing::Rows{{"INT64:0", "TIMESTAMP:2023-12-31T23:59:59.000000"},
                                      {"INT64:3", "TIMESTAMP:2024-01-01T00:00:00.000000"},
                                      {"INT64:1", "TIMESTAMP:2024-01-01T00:00:00.000001"},
                                      {"INT64:2", "TIMESTAMP:2024-01-01T00:00:00.000002"}});

    testing::Collector none;
    conn->scanTable({"", "tdg_my_scan_empty"}, {"id"}, "id", 10, none.callback());
    CHECK(none.rows.empty());
}

TEST_CASE("mysql rows: a reader that stops the stream leaves the connection usable") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    createNumbers(db, "tdg_my_numbers_6");
    auto conn = mytest::connect(db);

    int batches = 0;
    auto stopAtSecond = [&](const TdgRowBatch&) {
        if (++batches == 2) throw std::runtime_error("enough");
    };
    CHECK_THROWS_WITH(
        conn->scanTable({"", "tdg_my_numbers_6"}, {"id", "note"}, "id", 100, stopAtSecond),
        "enough");
    batches = 0;
    CHECK_THROWS_WITH(conn->fetchRows({"", "tdg_my_numbers_6"}, {"id"}, "id", rangeKeys(1, 5000),
                                      stopAtSecond, 100),
                      "enough");

    testing::Collector after;
    conn->fetchRows({"", "tdg_my_numbers_6"}, {"id", "name"}, "id", {"42"}, after.callback());
    CHECK(after.rows == testing::Rows{{"INT64:42", "TEXT:n42"}});
    CHECK(conn->describeTable({"", "tdg_my_numbers_6"}).size() == 3);
}

TEST_CASE("mysql rows: pages of dense keys read as ranges return the rows key lists return") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    auto connection = mytest::connect(db);
    testing::checkDenseKeyPages(db, *connection, "tdg_my_dense_replay");
}

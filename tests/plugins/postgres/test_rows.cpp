// fetch_rows and scan_table: key types, missing keys, NULLs, large batches, batch sizes.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "pg_test_support.hpp"
#include "plugins/support/dense_key_replay.hpp"

using namespace tapdiffgen;
using testing::statusOf;

TEST_CASE("fetch by integer keys: missing keys are absent, NULL values kept") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    testing::exec(db, R"SQL(
DROP TABLE IF EXISTS tdg_pg_fetch_int;
CREATE TABLE tdg_pg_fetch_int (id bigint PRIMARY KEY, v text, n int);
INSERT INTO tdg_pg_fetch_int VALUES (1, 'one', NULL), (5, NULL, 5),
                                    (9223372036854775807, 'max', -1);
)SQL");
    auto connection = pgtest::connect(db);
    testing::Collector collected;
    connection->fetchRows({"", "tdg_pg_fetch_int"}, {"id", "v", "n"}, "id",
                          {"1", "5", "999", "9223372036854775807", "1"}, collected.callback());
    auto rows = collected.rows;
    std::sort(rows.begin(), rows.end());
    CHECK(rows == testing::Rows{{"INT64:1", "TEXT:one", "NULL"},
                                {"INT64:5", "NULL", "INT64:5"},
                                {"INT64:9223372036854775807", "TEXT:max", "INT64:-1"}});

    testing::Collector none;
    connection->fetchRows({"", "tdg_pg_fetch_int"}, {"id"}, "id", {}, none.callback());
    connection->fetchRows({"", "tdg_pg_fetch_int"}, {"id"}, "id", {"404"}, none.callback());
    CHECK(none.rows.empty());

    // A key that is not an integer cannot be bound to the key's type.
    CHECK(
        statusOf([&] {
            connection->fetchRows({"", "tdg_pg_fetch_int"}, {"id"}, "id", {"x1"}, none.callback());
        }) == TDG_INVALID_DATA);
    // A key with a NUL byte cannot match any row; it does not break the batch either.
    connection->fetchRows({"", "tdg_pg_fetch_int"}, {"id"}, "id", {std::string("5\0x", 3), "1"},
                          none.callback());
    CHECK(none.rows == testing::Rows{{"INT64:1"}});
}

TEST_CASE("fetch with a run of consecutive integer keys returns exactly the rows asked for") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    // Rows 1..200 but 60..69; an int4 key, compared with the run's int8 bounds.
    testing::exec(db, R"SQL(
DROP TABLE IF EXISTS tdg_pg_fetch_run;
CREATE TABLE tdg_pg_fetch_run (id int PRIMARY KEY, v text);
INSERT INTO tdg_pg_fetch_run SELECT g, 'r' || g FROM generate_series(1, 200) g
 WHERE g NOT BETWEEN 60 AND 69;
)SQL");
    auto connection = pgtest::connect(db);
    const auto fetched = [&](const std::vector<std::string>& keys) {
        testing::Collector collected;
        connection->fetchRows({"", "tdg_pg_fetch_run"}, {"id", "v"}, "id", keys,
                              collected.callback());
        std::vector<int> ids;
        for (const auto& row : collected.rows) ids.push_back(std::stoi(row[0].substr(6)));
        std::sort(ids.begin(), ids.end());
        return ids;
    };
    std::vector<std::string> keys = {"150", "7", "999"};
    std::vector<int> expected = {7};
    for (int k = 50; k <= 120; ++k) {
        keys.push_back(std::to_string(k));
        if (k < 60 || k > 69) expected.push_back(k);
    }
    expected.push_back(150);
    CHECK(fetched(keys) == expected);

    // The run alone, and a run around a row that exists but is not asked for (no run then).
    std::vector<std::string> runOnly;
    std::vector<int> runRows;
    for (int k = 100; k <= 163; ++k) runOnly.push_back(std::to_string(k)), runRows.push_back(k);
    CHECK(fetched(runOnly) == runRows);
    std::vector<std::string> holed;
    std::vector<int> holedRows;
    for (int k = 100; k <= 163; ++k) {
        if (k == 130) continue;
        holed.push_back(std::to_string(k));
        holedRows.push_back(k);
    }
    CHECK(fetched(holed) == holedRows);
}

TEST_CASE("pages of dense keys read as ranges return the rows key lists return") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    auto connection = pgtest::connect(db);
    testing::checkDenseKeyPages(db, *connection, "tdg_pg_dense_replay");
}

TEST_CASE("fetch by text keys that need array-literal quoting") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    testing::exec(db, R"SQL(
DROP TABLE IF EXISTS tdg_pg_fetch_text;
CREATE TABLE tdg_pg_fetch_text (k varchar(40) PRIMARY KEY, n int);
INSERT INTO tdg_pg_fetch_text VALUES
 ('plain', 1), ('with space', 2), ('quote"in', 3), (E'back\\slash', 4), ('comma,brace{}', 5),
 ('NULL', 6), ('', 7), (E'\u00e9\U0001F600', 8), (' lead', 9), ('trail ', 10);
)SQL");
    auto connection = pgtest::connect(db);
    std::vector<std::string> keys = {
        "plain",         "with space", "quote\"in", "back\\slash",
        "comma,brace{}", "NULL",       "",          "\xc3\xa9\xf0\x9f\x98\x80",
        " lead",         "trail ",     "absent"};
    testing::Collector collected;
    connection->fetchRows({"", "tdg_pg_fetch_text"}, {"n", "k"}, "k", keys, collected.callback());
    auto rows = collected.rows;
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
        return std::stoi(a[0].substr(6)) < std::stoi(b[0].substr(6));
    });
    REQUIRE(rows.size() == 10);
    for (size_t i = 0; i < rows.size(); ++i) {
        CHECK(rows[i][0] == "INT64:" + std::to_string(i + 1));
        CHECK(rows[i][1] == "TEXT:" + keys[i]);
    }
}

TEST_CASE("fetch by uuid keys, any letter case") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    testing::exec(db, R"SQL(
DROP TABLE IF EXISTS tdg_pg_fetch_uuid;
CREATE TABLE tdg_pg_fetch_uuid (id uuid PRIMARY KEY, v int);
INSERT INTO tdg_pg_fetch_uuid VALUES ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 1),
                                     ('00000000-0000-0000-0000-000000000002', 2);
)SQL");
    auto connection = pgtest::connect(db);
    testing::Collector collected;
    connection->fetchRows(
        {"", "tdg_pg_fetch_uuid"}, {"id", "v"}, "id",
        {"A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11", "ffffffff-ffff-ffff-ffff-ffffffffffff"},
        collected.callback());
    CHECK(collected.rows ==
          testing::Rows{{"TEXT:a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "INT64:1"}});
    CHECK(statusOf([&] {
              connection->fetchRows({"", "tdg_pg_fetch_uuid"}, {"id"}, "id", {"not-a-uuid"},
                                    collected.callback());
          }) == TDG_INVALID_DATA);
}

TEST_CASE("a 100,000-key batch is one read delivered in bounded batches") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    testing::exec(db, R"SQL(
DROP TABLE IF EXISTS tdg_pg_fetch_big;
CREATE TABLE tdg_pg_fetch_big (id int PRIMARY KEY, v text);
INSERT INTO tdg_pg_fetch_big SELECT g, repeat('x', g % 50) FROM generate_series(1, 100000) g;
)SQL");
    auto connection = pgtest::connect(db);
    std::vector<std::string> keys;
    for (int i = 1; i <= 100000; ++i) keys.push_back(std::to_string(i));
    int64_t rows = 0;
    int64_t largestBatch = 0;
    int64_t idSum = 0;
    connection->fetchRows(
        {"", "tdg_pg_fetch_big"}, {"id", "v"}, "id", keys,
        [&](const TdgRowBatch& batch) {
            rows += batch.num_rows;
            largestBatch = std::max(largestBatch, batch.num_rows);
            for (int64_t r = 0; r < batch.num_rows; ++r) idSum += batch.cells[r * 2].i64;
        },
        5000);
    CHECK(rows == 100000);
    CHECK(largestBatch == 5000);
    CHECK(idSum == int64_t{100000} * 100001 / 2);
}

TEST_CASE("a re-pull of many keys reads them through the primary key, never a table scan") {
    // 8,000 of 20,000 rows, no two keys consecutive (no range): planned with the keys in view,
    // as PostgreSQL plans the first runs of every statement unless told otherwise, this is a
    // sequential scan of the whole table.
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    testing::exec(db, R"SQL(
DROP TABLE IF EXISTS tdg_pg_fetch_plan;
CREATE TABLE tdg_pg_fetch_plan (id int PRIMARY KEY, v text);
INSERT INTO tdg_pg_fetch_plan SELECT g, repeat('x', 40) FROM generate_series(1, 20000) g;
ANALYZE tdg_pg_fetch_plan;
)SQL");
    const auto scans = [&] {
        return testing::queryScalar(db,
                                    "SELECT seq_scan || '/' || coalesce(idx_scan, 0) FROM "
                                    "pg_stat_user_tables WHERE relname = 'tdg_pg_fetch_plan'");
    };
    const std::string before = scans();
    std::vector<std::string> keys;
    for (int key = 2; key <= 16000; key += 2) keys.push_back(std::to_string(key));
    int64_t rows = 0;
    {
        auto connection = pgtest::connect(db);
        for (int run = 0; run < 3; ++run) {
            connection->fetchRows({"", "tdg_pg_fetch_plan"}, {"id", "v"}, "id", keys,
                                  [&](const TdgRowBatch& batch) { rows += batch.num_rows; });
        }
    }  // the session ends, and its backend reports its table statistics as it exits
    CHECK(rows == 3 * 8000);
    const std::string seqBefore = before.substr(0, before.find('/'));
    std::string after = scans();
    for (int wait = 0; wait < 100 && after == before; ++wait) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        after = scans();
    }
    INFO("sequential/index scans before: " << before << ", after: " << after);
    CHECK(after != before);  // the statistics arrived
    CHECK(after.substr(0, after.find('/')) == seqBefore);
}

TEST_CASE("large values stream through") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    testing::exec(db, R"SQL(
DROP TABLE IF EXISTS tdg_pg_fetch_wide;
CREATE TABLE tdg_pg_fetch_wide (id int PRIMARY KEY, big text, blob bytea);
INSERT INTO tdg_pg_fetch_wide
    SELECT g, repeat('abcdefghij', 1000000), decode(repeat('00ff', 500000), 'hex')
      FROM generate_series(1, 3) g;
)SQL");
    auto connection = pgtest::connect(db);
    int64_t rows = 0;
    connection->fetchRows({"", "tdg_pg_fetch_wide"}, {"id", "big", "blob"}, "id", {"1", "2", "3"},
                          [&](const TdgRowBatch& batch) {
                              for (int64_t r = 0; r < batch.num_rows; ++r) {
                                  const TdgCell* row = batch.cells + r * 3;
                                  CHECK(row[1].size == 10000000);
                                  CHECK(row[2].kind == TDG_KIND_BYTES);
                                  CHECK(row[2].size == 1000000);
                                  ++rows;
                              }
                          });
    CHECK(rows == 3);
}

TEST_CASE("scan reads every row in key order, one bounded batch at a time") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    testing::exec(db, R"SQL(
DROP TABLE IF EXISTS tdg_pg_scan;
DROP TABLE IF EXISTS tdg_pg_scan_text;
DROP TABLE IF EXISTS tdg_pg_scan_empty;
CREATE TABLE tdg_pg_scan (id int PRIMARY KEY, v text);
INSERT INTO tdg_pg_scan SELECT g * 3, 'v' || g FROM generate_series(1, 25) g;
CREATE TABLE tdg_pg_scan_text (k text COLLATE "C" PRIMARY KEY);
INSERT INTO tdg_pg_scan_text VALUES ('b'), ('a'), ('B'), ('a b'), ('a"b'), ('\');
CREATE TABLE tdg_pg_scan_empty (id int PRIMARY KEY);
)SQL");
    auto connection = pgtest::connect(db);
    testing::Collector collected;
    connection->scanTable({"", "tdg_pg_scan"}, {"id", "v"}, "id", 10, collected.callback());
    REQUIRE(collected.rows.size() == 25);
    for (size_t i = 0; i < 25; ++i) {
        CHECK(collected.rows[i][0] == "INT64:" + std::to_string((i + 1) * 3));
        CHECK(collected.rows[i][1] == "TEXT:v" + std::to_string(i + 1));
    }
    CHECK(collected.batchSizes == std::vector<int64_t>{10, 10, 5});

    // The key need not be among the columns.
    testing::Collector values;
    connection->scanTable({"", "tdg_pg_scan"}, {"v"}, "id", 7, values.callback());
    CHECK(values.rows.size() == 25);
    CHECK(values.rows.front() == std::vector<std::string>{"TEXT:v1"});

    testing::Collector texts;
    connection->scanTable({"", "tdg_pg_scan_text"}, {"k"}, "k", 2, texts.callback());
    CHECK(testing::firstColumn(texts.rows) == std::vector<std::string>{"TEXT:B", "TEXT:\\",
                                                                       "TEXT:a", "TEXT:a b",
                                                                       "TEXT:a\"b", "TEXT:b"});

    testing::Collector empty;
    connection->scanTable({"", "tdg_pg_scan_empty"}, {"id"}, "id", 10, empty.callback());
    CHECK(empty.rows.empty());
}

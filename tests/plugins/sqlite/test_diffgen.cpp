// Reading the diffgen log: paging bounds, the table filter (bound, exact, case-sensitive),
// range counts, event fields, ts_created in UTC, the highest id, and a horizon that is final
// at once.
#include <doctest/doctest.h>

#include <cctype>

#include "sqlite_test_support.hpp"

using namespace tapdiffgen;
using testing::eventIds;

namespace {

// "YYYY-MM-DDTHH:MM:SS.mmm000+00:00": strftime's milliseconds padded to microseconds.
bool isUtcMillis(const std::string& text) {
    const std::string shape = "dddd-dd-ddTdd:dd:dd.ddd000+00:00";
    if (text.size() != shape.size()) return false;
    for (size_t i = 0; i < shape.size(); ++i) {
        bool digit = std::isdigit(static_cast<unsigned char>(text[i])) != 0;
        if (shape[i] == 'd' ? !digit : text[i] != shape[i]) return false;
    }
    return true;
}

// ids 1..10 without 4 and 7; tables a and b.
const char* kGappedLog = R"SQL(
CREATE TABLE log (id INTEGER PRIMARY KEY AUTOINCREMENT, tablename TEXT NOT NULL, table_id TEXT,
                  op TEXT, ts_created TEXT);
INSERT INTO log (id, tablename, table_id, op) VALUES
    (1, 'a', '1', 'i'), (2, 'b', '1', 'i'), (3, 'a', '1', 'u'), (5, 'b', '2', 'i'),
    (6, 'a', '2', 'i'), (8, 'b', '1', 'd'), (9, 'a', '1', 'd'), (10, 'b', '3', 'i');
)SQL";

}  // namespace

TEST_CASE("diffgen pages honour after, up_to, limit and the table filter") {
    sqlitetest::TempDatabase db;
    db.exec(kGappedLog);
    auto connection = sqlitetest::connect(db.path());
    core::TableRef log{"", "log"};
    const std::vector<std::string> both = {"a", "b"};

    auto first = connection->readDiffgenPage(log, 0, INT64_MAX, 3, both);
    CHECK(eventIds(first) == std::vector<int64_t>{1, 2, 3});
    CHECK(first.rangeRowCount() == 3);

    auto second = connection->readDiffgenPage(log, 3, INT64_MAX, 2, both);
    CHECK(eventIds(second) == std::vector<int64_t>{5, 6});
    CHECK(second.rangeRowCount() == 2);  // (3, 6] has a gap at 4

    auto bounded = connection->readDiffgenPage(log, 0, 5, 100, both);
    CHECK(eventIds(bounded) == std::vector<int64_t>{1, 2, 3, 5});
    CHECK(bounded.rangeRowCount() == 4);
    CHECK(eventIds(connection->readDiffgenPage(log, 5, 6, 100, both)) == std::vector<int64_t>{6});
    CHECK(eventIds(connection->readDiffgenPage(log, 10, INT64_MAX, 100, both)).empty());

    auto all = connection->readDiffgenPage(log, 0, INT64_MAX, 100, both);
    CHECK(eventIds(all) == std::vector<int64_t>{1, 2, 3, 5, 6, 8, 9, 10});
    CHECK(all.rangeRowCount() == 8);

    // The count covers rows of every table, not only the filtered ones.
    auto onlyA = connection->readDiffgenPage(log, 0, INT64_MAX, 2, {"a"});
    CHECK(eventIds(onlyA) == std::vector<int64_t>{1, 3});
    CHECK(onlyA.rangeRowCount() == 3);
    auto restA = connection->readDiffgenPage(log, 3, INT64_MAX, 100, {"a"});
    CHECK(eventIds(restA) == std::vector<int64_t>{6, 9});
    CHECK(restA.rangeRowCount() == 4);  // 5, 6, 8 and 9
    CHECK(eventIds(connection->readDiffgenPage(log, 0, INT64_MAX, 100, {"c"})).empty());
    CHECK(eventIds(connection->readDiffgenPage(log, 0, INT64_MAX, 100, {})).empty());
    CHECK(eventIds(connection->readDiffgenPage(log, 0, INT64_MAX, 100, {"A"})).empty());
}

TEST_CASE("table names are bound, exact and case-sensitive even under NOCASE") {
    sqlitetest::TempDatabase db;
    db.exec(R"SQL(
CREATE TABLE log (id INTEGER PRIMARY KEY, tablename TEXT COLLATE NOCASE, table_id TEXT, op TEXT,
                  ts_created TEXT);
INSERT INTO log VALUES (1, 'it''s', '1', 'i', NULL), (2, 'x''); DROP TABLE log; --', '2', 'i', NULL),
                       (3, 'Mixed', '3', 'i', NULL), (4, 'mixed', '4', 'i', NULL);
)SQL");
    auto connection = sqlitetest::connect(db.path());
    core::TableRef log{"", "log"};
    auto page =
        connection->readDiffgenPage(log, 0, INT64_MAX, 10, {"it's", "x'); DROP TABLE log; --"});
    CHECK(eventIds(page) == std::vector<int64_t>{1, 2});
    CHECK(eventIds(connection->readDiffgenPage(log, 0, INT64_MAX, 10, {"Mixed"})) ==
          std::vector<int64_t>{3});

    std::vector<std::string> many;
    for (int i = 0; i < 300; ++i) many.push_back("t" + std::to_string(i));
    many.push_back("mixed");
    CHECK(eventIds(connection->readDiffgenPage(log, 0, INT64_MAX, 10, many)) ==
          std::vector<int64_t>{4});
}

TEST_CASE("event fields: op, NULL table_id, ts_created as UTC TIMESTAMPTZ text") {
    sqlitetest::TempDatabase db;
    db.exec(R"SQL(
CREATE TABLE log (id INTEGER PRIMARY KEY, tablename TEXT, table_id, op TEXT, ts_created TEXT);
INSERT INTO log VALUES
    (1, 't', 'k "1"', 'd', '2024-01-02 03:04:05.6'),
    (2, 't', NULL, NULL, NULL),
    (3, 't', 42, '', '2024-01-02T05:04:05+02:00'),
    (4, 't', '7', 'insert', 'garbage'),
    (5, 't', '8', 'u', strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    (6, 't', '9', 'i', '2024-01-01 00:30:00-01:00');
)SQL");
    auto log = std::make_shared<testing::LogLines>();
    auto connection = sqlitetest::connect(db.path(), {}, log);
    auto page = connection->readDiffgenPage({"", "log"}, 0, INT64_MAX, 10, {"t"});
    REQUIRE(page.size() == 6);
    CHECK(page[0].op == 'd');
    CHECK(std::string(page[0].table_name) == "t");
    CHECK(std::string(page[0].table_id, page[0].table_id_size) == "k \"1\"");
    CHECK(std::string(page[0].ts_created) == "2024-01-02T03:04:05.600000+00:00");
    CHECK(page[1].op == 0);
    CHECK(page[1].table_id_is_null == 1);
    CHECK(page[1].table_id == nullptr);
    CHECK(page[1].ts_created == nullptr);
    CHECK(page[2].op == 0);
    CHECK(std::string(page[2].table_id, page[2].table_id_size) == "42");
    CHECK(std::string(page[2].ts_created) == "2024-01-02T03:04:05.000000+00:00");
    CHECK(page[3].op == 'i');
    CHECK(page[3].ts_created == nullptr);
    CHECK(
        log->contains("column 'ts_created' of table 'log' holds a value that is not a date and "
                      "time; sent as null"));
    CHECK(isUtcMillis(page[4].ts_created));
    CHECK(std::string(page[5].ts_created) == "2024-01-01T01:30:00.000000+00:00");
}

TEST_CASE("the highest id, an empty log, and a horizon that is final at once") {
    sqlitetest::TempDatabase db;
    db.exec(kGappedLog);
    db.exec(
        "CREATE TABLE empty_log (id INTEGER PRIMARY KEY, tablename TEXT, table_id TEXT,"
        " op TEXT, ts_created TEXT)");
    auto connection = sqlitetest::connect(db.path());
    CHECK(connection->maxDiffgenId({"", "log"}) == 10);
    CHECK(connection->maxDiffgenId({"main", "log"}) == 10);
    CHECK_FALSE(connection->maxDiffgenId({"", "empty_log"}).has_value());

    auto gap = connection->readDiffgenPage({"", "log"}, 3, INT64_MAX, 2, {"a", "b"});
    REQUIRE(gap.rangeRowCount() < 6 - 3);
    TdgHorizonMark mark = gap.mark();
    // Not all zero: the engine would read that as "cannot tell" and wait out its settle time.
    CHECK(mark.words[0] != 0);
    CHECK(connection->checkHorizon(mark) == std::optional<bool>(true));

    auto empty = connection->readDiffgenPage({"", "empty_log"}, 0, INT64_MAX, 10, {"a"});
    CHECK(empty.empty());
    CHECK(empty.rangeRowCount() == 0);
    CHECK(empty.mark().words[0] == mark.words[0]);

    TdgHorizonMark foreign{};
    foreign.words[0] = 1;
    foreign.words[1] = 12345;
    CHECK(testing::statusOf([&] { connection->checkHorizon(foreign); }) == TDG_INVALID_ARGUMENT);
}

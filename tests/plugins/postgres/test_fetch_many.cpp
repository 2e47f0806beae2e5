// fetch_rows_many: several re-pulls sent together (libpq pipeline mode) and answered in order;
// a failure midway, and a table that changed since it was described.
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>

#include "pg_test_support.hpp"

using namespace tapdiffgen;
using testing::Fetch;
using testing::fetchMany;
using testing::keysUpTo;
using testing::ManyCollector;
using testing::statusOf;

namespace {

// Tables tdg_pg_many<N>_a, _b and _big: each test case its own, as ctest runs them at once.
struct Tables {
    core::TableRef a, b, big;
};

Tables createTables(const testing::DatabaseEnv& db, const std::string& n) {
    const std::string p = "tdg_pg_many" + n;
    testing::exec(
        db, "DROP TABLE IF EXISTS " + p + "_a, " + p + "_b, " + p + "_big;\n" + "CREATE TABLE " +
                p + "_a (id int PRIMARY KEY, v text, n int);\n" + "INSERT INTO " + p +
                "_a VALUES (1, 'one', 10), (5, 'five', 50), (9, NULL, 90);\n" + "CREATE TABLE " +
                p + "_b (k text PRIMARY KEY, d numeric(6,2));\n" + "INSERT INTO " + p +
                "_b VALUES ('a', 1.50), ('b', NULL);\n" + "CREATE TABLE " + p +
                "_big (id int PRIMARY KEY, v text);\n" + "INSERT INTO " + p +
                "_big SELECT g, repeat('y', 40) FROM generate_series(1, 100000) g;");
    return {{"", p + "_a"}, {"", p + "_b"}, {"", p + "_big"}};
}

}  // namespace

TEST_CASE("fetch many: each request's rows reach its own sink, requests answered in order") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    const Tables t = createTables(db, "1");
    auto connection = pgtest::connect(db);
    // Two 100,000-key requests: megabytes of statements and of rows cross at once, which a
    // blocking send would deadlock on.
    std::vector<Fetch> fetches = {
        {t.a, {"id", "v"}, "id", {"1", "5", "404"}},  {t.big, {"id"}, "id", keysUpTo(100000)},
        {t.b, {"k", "d"}, "k", {"b", "a"}},           {t.a, {"n"}, "id", {}},
        {t.big, {"v", "id"}, "id", keysUpTo(100000)}, {t.a, {"n", "id"}, "id", {"9"}},
    };
    ManyCollector collected(fetches.size());
    fetchMany(*connection, fetches, collected);

    CHECK(collected.sorted(0) == testing::Rows{{"INT64:1", "TEXT:one"}, {"INT64:5", "TEXT:five"}});
    CHECK(collected.perRequest[1].rows.size() == 100000);
    CHECK(collected.sorted(2) == testing::Rows{{"TEXT:a", "DECIMAL:1.50"}, {"TEXT:b", "NULL"}});
    CHECK(collected.perRequest[3].rows.empty());
    REQUIRE(collected.perRequest[4].rows.size() == 100000);
    CHECK(collected.perRequest[4].rows[0][0] == "TEXT:" + std::string(40, 'y'));
    CHECK(collected.sorted(5) == testing::Rows{{"INT64:90", "INT64:9"}});
    CHECK(collected.answerOrder == std::vector<size_t>{0, 1, 2, 4, 5});
    // Bounded batches, as with one request at a time.
    CHECK(*std::max_element(collected.perRequest[1].batchSizes.begin(),
                            collected.perRequest[1].batchSizes.end()) == 1000);
}

TEST_CASE("fetch many: a failure midway is reported and leaves the session usable") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    const Tables t = createTables(db, "2");
    auto connection = pgtest::connect(db);
    std::vector<Fetch> fetches = {
        {t.a, {"id"}, "id", {"1"}},
        {t.a, {"id"}, "id", {"x1"}},  // not an integer: fails on the server
        {t.big, {"id"}, "id", keysUpTo(50000)},
    };
    ManyCollector collected(fetches.size());
    std::string message;
    CHECK(statusOf([&] { fetchMany(*connection, fetches, collected); }, &message) ==
          TDG_INVALID_DATA);
    CHECK_MESSAGE(message.find(t.a.name) != std::string::npos, message);
    CHECK(collected.perRequest[0].rows == testing::Rows{{"INT64:1"}});
    CHECK(collected.perRequest[2].rows.empty());

    // Out of pipeline mode and idle: the next reads work, one or several.
    testing::Collector after;
    connection->fetchRows(t.a, {"id"}, "id", {"5"}, after.callback());
    CHECK(after.rows == testing::Rows{{"INT64:5"}});
    ManyCollector again(2);
    fetchMany(*connection, {{t.a, {"id"}, "id", {"9"}}, {t.b, {"k"}, "k", {"a"}}}, again);
    CHECK(again.perRequest[0].rows == testing::Rows{{"INT64:9"}});
    CHECK(again.perRequest[1].rows == testing::Rows{{"TEXT:a"}});
}

TEST_CASE("fetch many: a table retyped since it was described is read again afresh") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    const Tables t = createTables(db, "3");
    auto connection = pgtest::connect(db);
    testing::Collector warm;  // caches the description of table a
    connection->fetchRows(t.a, {"id", "n"}, "id", {"1"}, warm.callback());
    REQUIRE(warm.rows == testing::Rows{{"INT64:1", "INT64:10"}});
    testing::exec(db, "ALTER TABLE " + t.a.name + " ALTER COLUMN n TYPE text USING n::text || '!'");

    std::vector<Fetch> fetches = {
        {t.b, {"k"}, "k", {"a"}},
        {t.a, {"id", "n"}, "id", {"5"}},
        {t.b, {"k"}, "k", {"b"}},
    };
    ManyCollector collected(fetches.size());
    fetchMany(*connection, fetches, collected);
    CHECK(collected.perRequest[0].rows == testing::Rows{{"TEXT:a"}});
    CHECK(collected.perRequest[1].rows == testing::Rows{{"INT64:5", "TEXT:50!"}});
    CHECK(collected.perRequest[2].rows == testing::Rows{{"TEXT:b"}});
    CHECK(collected.answerOrder == std::vector<size_t>{0, 1, 2});
}

// One table's page is re-pulled row by row and the next page's several tables through the
// pipeline, on the same session: every row of every request still arrives.
TEST_CASE("fetch many: after a row-by-row read every row of every request arrives") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    const Tables t = createTables(db, "4");
    auto connection = pgtest::connect(db);
    // Every table already described and the last statement a row-by-row read, so nothing runs
    // between it and the pipeline; the first request is that statement, so no Parse either.
    testing::Collector single;
    connection->fetchRows(t.big, {"id"}, "id", {"1"}, single.callback());
    connection->fetchRows(t.b, {"k"}, "k", {"a"}, single.callback());
    connection->fetchRows(t.a, {"id", "v"}, "id", {"1", "5"}, single.callback());
    REQUIRE(single.rows.size() == 4);

    std::vector<Fetch> fetches = {
        {t.a, {"id", "v"}, "id", {"1", "5", "9"}},
        {t.big, {"id"}, "id", keysUpTo(2500)},
        {t.b, {"k"}, "k", {"a", "b"}},
    };
    ManyCollector collected(fetches.size());
    fetchMany(*connection, fetches, collected);
    CHECK(collected.sorted(0) ==
          testing::Rows{{"INT64:1", "TEXT:one"}, {"INT64:5", "TEXT:five"}, {"INT64:9", "NULL"}});
    CHECK(collected.perRequest[1].rows.size() == 2500);
    CHECK(collected.sorted(2) == testing::Rows{{"TEXT:a"}, {"TEXT:b"}});
    CHECK(collected.answerOrder == std::vector<size_t>{0, 1, 2});
}

// fetch_rows_many: many tables' re-pulls as multi-statement text queries, answered in order;
// keys that need escaping, queries split by size, a failure midway, and the session after it.
#include <doctest/doctest.h>

#include <algorithm>

#include "mysql_test_support.hpp"

using namespace tapdiffgen;
using testing::Fetch;
using testing::fetchMany;
using testing::keysUpTo;
using testing::ManyCollector;
using testing::statusOf;

namespace {

// Tables tdg_my_many<N>_a, _b and _big: each test case its own, as ctest runs them at once.
struct Tables {
    core::TableRef a, b, big;
};

Tables createTables(const testing::DatabaseEnv& db, const std::string& n) {
    testing::exec(db, mytest::withTable(R"SQL(
DROP TABLE IF EXISTS @T_a, @T_b, @T_big;
CREATE TABLE @T_a (id INT PRIMARY KEY, v TEXT, n INT);
INSERT INTO @T_a VALUES (1, 'one', 10), (5, 'five', 50), (9, NULL, 90);
CREATE TABLE @T_b (k VARCHAR(40) PRIMARY KEY, d DECIMAL(6,2)) DEFAULT CHARSET = utf8mb4;
INSERT INTO @T_b VALUES ('a', 1.50), ('b', NULL), ('it''s', 2), ('back\\slash', 3),
  ('x''); DROP TABLE @T_a; --', 4), ('😀', 5);
CREATE TABLE @T_big (id BIGINT UNSIGNED PRIMARY KEY, v VARCHAR(40));
INSERT INTO @T_big SELECT seq, REPEAT('y', 40) FROM seq_1_to_100000;
)SQL",
                                        "tdg_my_many" + n));
    const std::string p = "tdg_my_many" + n;
    return {{"", p + "_a"}, {"", p + "_b"}, {"", p + "_big"}};
}

// Every other key up to `count`: no run of consecutive keys, so every key is a literal.
std::vector<std::string> oddKeysUpTo(int count) {
    std::vector<std::string> keys;
    for (int i = 1; i <= count; i += 2) keys.push_back(std::to_string(i));
    return keys;
}

}  // namespace

TEST_CASE("mysql fetch many: each request's rows reach its own sink, requests answered in order") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    const Tables t = createTables(db, "1");
    auto connection = mytest::connect(db);
    // 50,000 literal keys twice, a run of 100,000 and the small ones: more than one query's
    // worth of text, so the requests are split across queries and still answered in order.
    std::vector<Fetch> fetches = {
        {t.a, {"id", "v"}, "id", {"1", "5", "404", "5"}},
        {t.big, {"id"}, "id", oddKeysUpTo(100000)},
        {t.b,
         {"k", "d"},
         "k",
         {"b", "a", "it's", "back\\slash", "x'); DROP TABLE tdg_my_many1_a; --", "😀", "missing"}},
        {t.a, {"n"}, "id", {}},
        {t.big, {"v", "id"}, "id", keysUpTo(100000)},
        {t.big, {"id"}, "id", oddKeysUpTo(100000)},
        {t.a, {"n", "id"}, "id", {"9"}},
    };
    ManyCollector collected(fetches.size());
    fetchMany(*connection, fetches, collected);

    CHECK(collected.sorted(0) == testing::Rows{{"INT64:1", "TEXT:one"}, {"INT64:5", "TEXT:five"}});
    CHECK(collected.perRequest[1].rows.size() == 50000);
    CHECK(collected.sorted(2) ==
          testing::Rows{{"TEXT:a", "DECIMAL:1.50"},
                        {"TEXT:b", "NULL"},
                        {"TEXT:back\\slash", "DECIMAL:3.00"},
                        {"TEXT:it's", "DECIMAL:2.00"},
                        {"TEXT:x'); DROP TABLE tdg_my_many1_a; --", "DECIMAL:4.00"},
                        {"TEXT:😀", "DECIMAL:5.00"}});
    CHECK(collected.perRequest[3].rows.empty());
    REQUIRE(collected.perRequest[4].rows.size() == 100000);
    CHECK(collected.perRequest[4].rows[0][0] == "TEXT:" + std::string(40, 'y'));
    CHECK(collected.perRequest[5].rows == collected.perRequest[1].rows);
    CHECK(collected.sorted(6) == testing::Rows{{"INT64:90", "INT64:9"}});
    CHECK(collected.answerOrder == std::vector<size_t>{0, 1, 2, 4, 5, 6});
    // Bounded batches, as with one request at a time.
    CHECK(*std::max_element(collected.perRequest[4].batchSizes.begin(),
                            collected.perRequest[4].batchSizes.end()) == 1000);
    // Every key was a value: the table a key spelled a statement to drop is still there.
    testing::Collector after;
    connection->fetchRows(t.a, {"id"}, "id", {"1"}, after.callback());
    CHECK(after.rows == testing::Rows{{"INT64:1"}});
}

TEST_CASE("mysql fetch many: the same rows as one fetch at a time, and composite keys") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    const Tables t = createTables(db, "2");
    auto connection = mytest::connect(db);
    std::vector<Fetch> fetches = {
        {t.big, {"id", "v"}, "id", {"7", "3", "100000", "0", "99999"}},
        {t.b, {"d", "k"}, "k", {"a", "b", "😀"}},
        {t.a, {"v", "n", "id"}, "id", {"9", "1"}},
    };
    ManyCollector collected(fetches.size());
    fetchMany(*connection, fetches, collected);
    for (size_t i = 0; i < fetches.size(); ++i) {
        testing::Collector one;
        connection->fetchRows(fetches[i].table, fetches[i].columns, fetches[i].keyColumn,
                              fetches[i].keys, one.callback());
        std::sort(one.rows.begin(), one.rows.end());
        INFO("request " << i);
        CHECK(!one.rows.empty());
        CHECK(collected.sorted(i) == one.rows);
    }

    // A key of two columns, one of them text: the literals go in pairs.
    testing::exec(db, R"SQL(
DROP TABLE IF EXISTS tdg_my_many2_pair;
CREATE TABLE tdg_my_many2_pair (region VARCHAR(10), n INT, v INT, PRIMARY KEY (region, n));
INSERT INTO tdg_my_many2_pair VALUES ('eu', 1, 10), ('eu', 2, 20), ('us', 1, 30), ('o''k', 1, 40);
)SQL");
    core::TableRef pair{"", "tdg_my_many2_pair"};
    std::vector<std::string> columns = {"region", "n", "v"};
    core::KeySpec pairKey;
    pairKey.columns = {core::KeyColumn{"region", TDG_KIND_TEXT, false, "", -1},
                       core::KeyColumn{"n", TDG_KIND_TEXT, false, "", -1}};
    core::KeySpec aKey;
    aKey.columns = {core::KeyColumn{"id", TDG_KIND_TEXT, false, "", -1}};
    std::vector<std::string> aColumns = {"id"};
    ManyCollector pairs(2);
    std::vector<core::FetchSpec> specs(2);
    specs[0].table = &pair;
    specs[0].columns = &columns;
    specs[0].key = &pairKey;
    specs[0].keys = {"us", "1", "o'k", "1", "eu", "2", "eu", "9"};
    specs[0].onBatch = pairs.callback(0);
    specs[1].table = &t.a;
    specs[1].columns = &aColumns;
    specs[1].key = &aKey;
    specs[1].keys = {"5"};
    specs[1].onBatch = pairs.callback(1);
    connection->fetchRowsMany(specs);
    CHECK(pairs.sorted(0) == testing::Rows{{"TEXT:eu", "INT64:2", "INT64:20"},
                                           {"TEXT:o'k", "INT64:1", "INT64:40"},
                                           {"TEXT:us", "INT64:1", "INT64:30"}});
    CHECK(pairs.sorted(1) == testing::Rows{{"INT64:5"}});
}

TEST_CASE("mysql fetch many: a failure midway is reported and leaves the session usable") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    const Tables t = createTables(db, "3");
    auto connection = mytest::connect(db);

    // Not an integer: refused before anything is sent, naming the column.
    std::string message;
    ManyCollector refused(2);
    CHECK(statusOf(
              [&] {
                  fetchMany(*connection, {{t.a, {"id"}, "id", {"1"}}, {t.a, {"id"}, "id", {"x1"}}},
                            refused);
              },
              &message) == TDG_INVALID_DATA);
    CHECK_MESSAGE(
        message.find("'x1' is not a valid value of integer column 'id'") != std::string::npos,
        message);

    // A table dropped after its statement was prepared fails on the server, in the middle of
    // the query: the requests before it have their rows, the ones after it none.
    testing::Collector warm;
    connection->fetchRows(t.b, {"k"}, "k", {"a"}, warm.callback());
    REQUIRE(warm.rows == testing::Rows{{"TEXT:a"}});
    testing::exec(db, "DROP TABLE " + t.b.name);
    ManyCollector collected(3);
    CHECK(statusOf(
              [&] {
                  fetchMany(*connection,
                            {{t.a, {"id"}, "id", {"1"}},
                             {t.b, {"k"}, "k", {"a"}},
                             {t.big, {"id"}, "id", keysUpTo(50000)}},
                            collected);
              },
              &message) == TDG_NOT_FOUND);
    CHECK_MESSAGE(message.find(t.b.name) != std::string::npos, message);
    CHECK(collected.perRequest[0].rows == testing::Rows{{"INT64:1"}});
    CHECK(collected.perRequest[2].rows.empty());

    // The connection is idle again: the next reads work, one or several.
    testing::Collector after;
    connection->fetchRows(t.a, {"id"}, "id", {"5"}, after.callback());
    CHECK(after.rows == testing::Rows{{"INT64:5"}});
    ManyCollector again(2);
    fetchMany(*connection, {{t.a, {"id"}, "id", {"9"}}, {t.big, {"id"}, "id", {"2"}}}, again);
    CHECK(again.perRequest[0].rows == testing::Rows{{"INT64:9"}});
    CHECK(again.perRequest[1].rows == testing::Rows{{"DECIMAL:2"}});
}

// Reading the diffgen log: paging bounds, the table filter, range counts, marks, the highest
// id, and the two-phase horizon check against a transaction held open by another session.
#include <doctest/doctest.h>

#include <chrono>
#include <thread>

#include "pg_test_support.hpp"

using namespace tapdiffgen;
using testing::eventIds;

namespace {

// ids 1..10 without 4 and 7; tables a and b.
void createLog(const testing::DatabaseEnv& db, const std::string& table) {
    testing::exec(db,
                  "DROP TABLE IF EXISTS " + table +
                      ";"
                      "CREATE TABLE " +
                      table +
                      " (id bigserial PRIMARY KEY, tablename text"
                      " NOT NULL, table_id text, op char(1), ts_created timestamp DEFAULT now());"
                      "INSERT INTO " +
                      table +
                      " (id, tablename, table_id, op) VALUES"
                      " (1, 'a', '1', 'i'), (2, 'b', '1', 'i'), (3, 'a', '1', 'u'),"
                      " (5, 'b', '2', 'i'), (6, 'a', '2', 'i'), (8, 'b', '1', 'd'),"
                      " (9, 'a', '1', 'd'), (10, 'b', '3', 'i')");
}

}  // namespace

TEST_CASE("diffgen pages honour after, up_to, limit and the table filter") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    createLog(db, "tdg_pg_dg_paging");
    auto connection = pgtest::connect(db);
    core::TableRef log{"", "tdg_pg_dg_paging"};
    const std::vector<std::string> both = {"a", "b"};

    auto first = connection->readDiffgenPage(log, 0, INT64_MAX, 3, both);
    CHECK(eventIds(first) == std::vector<int64_t>{1, 2, 3});
    CHECK(first.rangeRowCount() == 3);  // no gap in (0, 3]

    auto second = connection->readDiffgenPage(log, 3, INT64_MAX, 2, both);
    CHECK(eventIds(second) == std::vector<int64_t>{5, 6});
    CHECK(second.rangeRowCount() == 2);  // (3, 6] has a gap at 4

    auto bounded = connection->readDiffgenPage(log, 0, 5, 100, both);
    CHECK(eventIds(bounded) == std::vector<int64_t>{1, 2, 3, 5});
    CHECK(bounded.rangeRowCount() == 4);

    auto exact = connection->readDiffgenPage(log, 5, 6, 100, both);
    CHECK(eventIds(exact) == std::vector<int64_t>{6});

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

TEST_CASE("the table filter matches names that need quoting, among many") {
    // Ten names (a filter of nine or more is a hash of them), some of them with the characters
    // an array or string literal must escape.
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    const std::vector<std::string> names = {
        "a",           "b",       "we'ird", "co,mma",  "{brace}",
        "back\\slash", "quo\"te", "sp ace", "@names@", "\xc3\xa9t\xc3\xa9"};
    std::string values;
    for (size_t i = 0; i < names.size(); ++i) {
        // ids 1..11 but 5, which an unconfigured table's event takes
        values += (i == 0 ? "" : ", ") + std::string("(") + std::to_string(i < 4 ? i + 1 : i + 2) +
                  ", " + testing::queryScalar(db, "SELECT quote_literal($$" + names[i] + "$$)") +
                  ", '1', 'i')";
    }
    testing::exec(db,
                  "DROP TABLE IF EXISTS \"tdg_pg_dg_@names@\";"
                  "CREATE TABLE \"tdg_pg_dg_@names@\" (id bigint PRIMARY KEY, tablename text,"
                  " table_id text, op char(1), ts_created timestamp DEFAULT now());"
                  "INSERT INTO \"tdg_pg_dg_@names@\" (id, tablename, table_id, op) VALUES " +
                      values + ", (5, 'not configured', '1', 'i')");
    auto connection = pgtest::connect(db);
    core::TableRef log{"", "tdg_pg_dg_@names@"};
    auto page = connection->readDiffgenPage(log, 0, INT64_MAX, 100, names);
    CHECK(eventIds(page) == std::vector<int64_t>{1, 2, 3, 4, 6, 7, 8, 9, 10, 11});
    CHECK(page.rangeRowCount() == 11);
    auto some = connection->readDiffgenPage(log, 0, INT64_MAX, 100,
                                            {names[2], names[5], names[6], names[8], names[9]});
    CHECK(eventIds(some) == std::vector<int64_t>{3, 7, 8, 10, 11});
}

TEST_CASE("an empty page still carries a horizon mark") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    createLog(db, "tdg_pg_dg_empty");
    auto connection = pgtest::connect(db);
    auto page =
        connection->readDiffgenPage({"", "tdg_pg_dg_empty"}, 10, INT64_MAX, 100, {"a", "b"});
    CHECK(page.empty());
    CHECK(page.rangeRowCount() == 0);
    CHECK(page.mark().words[0] == 1);
    CHECK(page.mark().words[1] > 0);

    auto full = connection->readDiffgenPage({"", "tdg_pg_dg_empty"}, 0, INT64_MAX, 100, {"a"});
    CHECK(full.mark().words[0] == 1);
    CHECK(full.mark().words[1] >= page.mark().words[1]);
}

TEST_CASE("event fields: op, NULL table_id and ts_created, naive timestamps read as UTC") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    testing::exec(db, R"SQL(
DROP TABLE IF EXISTS tdg_pg_dg_fields;
CREATE TABLE tdg_pg_dg_fields (id bigint PRIMARY KEY, tablename varchar(64), table_id text,
                               op text, ts_created timestamp);
INSERT INTO tdg_pg_dg_fields VALUES
 (1, 'we"ird\,{name} ', 'k "1"', 'd', '2024-01-02 03:04:05.6'),
 (2, 'we"ird\,{name} ', NULL, NULL, NULL),
 (3, 'we"ird\,{name} ', '', '', 'infinity'),
 (4, 'other', '9', 'u', '2024-01-02 03:04:05'),
 (5, 'NULL', '5', 'insert', '2024-01-02 03:04:05');
)SQL");
    auto connection = pgtest::connect(db);
    auto page = connection->readDiffgenPage({"", "tdg_pg_dg_fields"}, 0, INT64_MAX, 10,
                                            {"we\"ird\\,{name} ", "NULL"});
    REQUIRE(page.size() == 4);
    CHECK(page[0].op == 'd');
    CHECK(std::string(page[0].table_name) == "we\"ird\\,{name} ");
    CHECK(page[0].table_id_is_null == 0);
    CHECK(std::string(page[0].table_id, page[0].table_id_size) == "k \"1\"");
    CHECK(std::string(page[0].ts_created) == "2024-01-02T03:04:05.600000+00:00");
    CHECK(page[1].op == 0);
    CHECK(page[1].table_id_is_null == 1);
    CHECK(page[1].table_id == nullptr);
    CHECK(page[1].ts_created == nullptr);
    CHECK(page[2].op == 0);
    CHECK(page[2].table_id_is_null == 0);
    CHECK(page[2].table_id_size == 0);
    CHECK(page[2].ts_created == nullptr);
    CHECK(page[3].id == 5);
    CHECK(page[3].op == 'i');
    CHECK(std::string(page[3].table_name) == "NULL");
}

TEST_CASE("integer table_id and timestamptz ts_created") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    // Written by a session in the server's zone (America/New_York).
    testing::exec(db, R"SQL(
DROP TABLE IF EXISTS tdg_pg_dg_typed;
CREATE TABLE tdg_pg_dg_typed (id integer PRIMARY KEY, tablename text, table_id bigint,
                              op char(1), ts_created timestamptz);
INSERT INTO tdg_pg_dg_typed VALUES (7, 't', 9223372036854775807, 'i', '2024-07-01 12:00:00'),
                                   (8, 't', -3, 'u', '2024-01-01 00:00:00.25+02');
)SQL");
    auto connection = pgtest::connect(db);
    auto page = connection->readDiffgenPage({"", "tdg_pg_dg_typed"}, 0, INT64_MAX, 10, {"t"});
    REQUIRE(page.size() == 2);
    CHECK(std::string(page[0].table_id, page[0].table_id_size) == "9223372036854775807");
    CHECK(std::string(page[0].ts_created) == "2024-07-01T16:00:00.000000+00:00");
    CHECK(std::string(page[1].table_id, page[1].table_id_size) == "-3");
    CHECK(std::string(page[1].ts_created) == "2023-12-31T22:00:00.250000+00:00");
    CHECK(page.rangeRowCount() == 2);
    CHECK(connection->maxDiffgenId({"", "tdg_pg_dg_typed"}) == 8);
}

TEST_CASE("max diffgen id, empty log and schema-qualified log") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    testing::exec(db, R"SQL(
DROP SCHEMA IF EXISTS "tdg_pg Audit" CASCADE;
CREATE SCHEMA "tdg_pg Audit";
CREATE TABLE "tdg_pg Audit"."Diffgen" (id bigint PRIMARY KEY, tablename text, table_id text,
                                        op char(1), ts_created timestamp);
)SQL");
    auto connection = pgtest::connect(db);
    core::TableRef log{"tdg_pg Audit", "Diffgen"};
    CHECK_FALSE(connection->maxDiffgenId(log).has_value());
    CHECK(connection->readDiffgenPage(log, 0, INT64_MAX, 10, {"x"}).empty());
    testing::exec(db,
                  "INSERT INTO \"tdg_pg Audit\".\"Diffgen\" VALUES"
                  " (41, 'x', '1', 'i', now()), (42, 'y', '1', 'i', now())");
    CHECK(connection->maxDiffgenId(log) == 42);
    CHECK(eventIds(connection->readDiffgenPage(log, 0, INT64_MAX, 10, {"x"})) ==
          std::vector<int64_t>{41});
    try {
        connection->maxDiffgenId({"", "tdg_pg_no_log"});
        FAIL("no error for a missing diffgen table");
    } catch (const core::DialectError& failure) {
        CHECK(failure.status() == TDG_NOT_FOUND);
        CHECK(failure.sqlstate() == "42P01");
    }
}

TEST_CASE("the horizon stays pending while a writer is open and becomes final after") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    createLog(db, "tdg_pg_dg_horizon");
    auto connection = pgtest::connect(db);
    core::TableRef log{"", "tdg_pg_dg_horizon"};

    pgtest::RawSession writer(db);
    writer.exec("BEGIN");
    writer.exec(
        "INSERT INTO tdg_pg_dg_horizon (id, tablename, table_id, op)"
        " VALUES (4, 'a', '9', 'i')");

    auto page = connection->readDiffgenPage(log, 0, INT64_MAX, 100, {"a", "b"});
    CHECK(eventIds(page) == std::vector<int64_t>{1, 2, 3, 5, 6, 8, 9, 10});
    TdgHorizonMark mark = page.mark();
    for (int i = 0; i < 3; ++i) {
        CHECK(connection->checkHorizon(mark) == std::optional<bool>(false));
        CHECK(mark.words[0] == 1);
    }

    writer.exec("COMMIT");
    // Phase 1 completes (pending, moving to phase 2), then phase 2 becomes final; other
    // sessions' short transactions may delay either step a little.
    bool final = false;
    bool sawSecondPhase = false;
    for (int i = 0; i < 200 && !final; ++i) {
        final = connection->checkHorizon(mark).value_or(false);
        sawSecondPhase = sawSecondPhase || mark.words[0] == 2;
        if (!final) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    CHECK(final);
    CHECK(sawSecondPhase);
    CHECK(eventIds(connection->readDiffgenPage(log, 3, 5, 100, {"a"})) == std::vector<int64_t>{4});
}

TEST_CASE("a mark that is not the plugin's is rejected") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    auto connection = pgtest::connect(db);
    TdgHorizonMark bogus{};
    bogus.words[0] = 77;
    try {
        connection->checkHorizon(bogus);
        FAIL("accepted a foreign mark");
    } catch (const core::DialectError& failure) {
        CHECK(failure.status() == TDG_INVALID_ARGUMENT);
    }
}

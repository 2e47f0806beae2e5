// Every PostgreSQL type the plugin maps, with edge values, read back through the real plugin:
// each cell's kind and exact text, and the column descriptions.
#include <doctest/doctest.h>

#include <map>

#include "pg_test_support.hpp"

using namespace tapdiffgen;

namespace {

const std::vector<std::string> kColumns = {
    "id",       "c_int2",   "c_int4",  "c_int8",    "c_num",      "c_num124",   "c_num38",
    "c_real",   "c_double", "c_bool",  "c_text",    "c_varchar",  "c_char",     "c_name",
    "c_citext", "c_date",   "c_ts",    "c_tstz",    "c_time",     "c_timetz",   "c_json",
    "c_jsonb",  "c_uuid",   "c_bytea", "c_int_arr", "c_text_arr", "c_interval", "c_inet",
    "c_cidr",   "c_money",  "c_enum",  "c_domain"};

void createMatrix(const testing::DatabaseEnv& db) {
    testing::exec(db, R"SQL(
DROP TABLE IF EXISTS tdg_pg_types;
DROP TYPE IF EXISTS tdg_pg_mood;
DROP DOMAIN IF EXISTS tdg_pg_money2;
DROP DOMAIN IF EXISTS tdg_pg_money1;
CREATE EXTENSION IF NOT EXISTS citext;
CREATE TYPE tdg_pg_mood AS ENUM ('sad', 'happy');
CREATE DOMAIN tdg_pg_money1 AS numeric(10,2);
CREATE DOMAIN tdg_pg_money2 AS tdg_pg_money1;
CREATE TABLE tdg_pg_types (
    id integer PRIMARY KEY, c_int2 smallint, c_int4 integer, c_int8 bigint, c_num numeric,
    c_num124 numeric(12,4), c_num38 numeric(38,0), c_real real, c_double double precision,
    c_bool boolean, c_text text, c_varchar varchar(20), c_char char(5), c_name name,
    c_citext citext, c_date date, c_ts timestamp(6), c_tstz timestamptz, c_time time,
    c_timetz timetz, c_json json, c_jsonb jsonb, c_uuid uuid, c_bytea bytea, c_int_arr int[],
    c_text_arr text[][], c_interval interval, c_inet inet, c_cidr cidr, c_money money,
    c_enum tdg_pg_mood, c_domain tdg_pg_money2);
INSERT INTO tdg_pg_types VALUES
 (1, -32768, 2147483647, 9223372036854775807, 123456789012345678901234567890, 1.5,
  12345678901234567890123456789012345678, 0.1, 0.1, true,
  E'h\u00e9llo \U0001F600 "quoted" \\ back', '', 'ab', 'Name', 'MiXeD', '2024-02-29',
  '2024-02-29 13:14:15.123456', '2024-02-29 13:14:15.5+05:30', '13:14:15.5',
  '13:14:15.5+02', '{"a": [1, 2, {"b": null}], "c": "x"}', '{"b": {"c": [1, 2.50]}, "a": true}',
  'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', '\x00ff10', '{1,NULL,3}',
  E'{{a,NULL},{"b\\"c",""}}', '1 day 02:03:04.5', '192.168.0.1/24', '10.0.0.0/8', 12.5,
  'happy', 12.3),
 (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
  NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
  NULL),
 (3, 32767, -2147483648, -9223372036854775808, 'NaN', -0.5,
  -99999999999999999999999999999999999999, 'NaN', 1e-7, false, '', 'x', 'abcde', '', '',
  'infinity', 'infinity', '-infinity', '00:00:00', '23:59:59.999999-03:30', '[]', '"str"',
  '00000000-0000-0000-0000-000000000000', '', '{}', '{}',
  '-1 years -2 mons +3 days -04:05:06', '::1', '::/0', -1.5, 'sad', -0.01),
 (4, 0, 0, 0, 'Infinity', 0, 0, 3.4028235e38, 1.7976931348623157e308, true, 'x', 'y', 'z',
  'n', 'c', '0044-03-15 BC', '2000-01-01 00:00:00', '2024-07-01 12:00:00', '24:00:00',
  '00:00:00+00', 'null', '{"k": "\u00e9 \ud83d\ude00"}', 'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '\xdeadbeef', '{{1,2},{3,NULL}}', '{"{}",NULL}', '0', '0.0.0.0', '0.0.0.0/0', 0, 'happy', 0),
 (5, 1, 1, 1, '-Infinity', 99999999.9999, 1, '-Infinity', 'Infinity', false, 'y', 'z', 'zz',
  'nn', 'cc', '9999-12-31', '1999-12-31 23:59:59.999999', '2024-01-01 00:00:00.000001+00',
  '00:00:00.000001', '12:00:00-12', '{}', '[]', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
  '\x', '{-1}', '{"\\"}', '-00:00:00.000001', '255.255.255.255', '10.1.0.0/16',
  -92233720368547758.08, 'sad', 99999999.99);
)SQL");
}

// Expected cells per id, column by column (kColumns order).
std::map<std::string, std::vector<std::string>> expectedRows() {
    std::map<std::string, std::vector<std::string>> rows;
    rows["1"] = {"INT64:1",
                 "INT64:-32768",
                 "INT64:2147483647",
                 "INT64:9223372036854775807",
                 "DECIMAL:123456789012345678901234567890",
                 "DECIMAL:1.5000",
                 "DECIMAL:12345678901234567890123456789012345678",
                 "DECIMAL:0.1",
                 "DECIMAL:0.1",
                 "BOOL:true",
                 "TEXT:h\xc3\xa9llo \xf0\x9f\x98\x80 \"quoted\" \\ back",
                 "TEXT:",
                 "TEXT:ab   ",
                 "TEXT:Name",
                 "TEXT:MiXeD",
                 "DATE:2024-02-29",
                 "TIMESTAMP:2024-02-29T13:14:15.123456",
                 "TIMESTAMPTZ:2024-02-29T07:44:15.500000+00:00",
                 "TIME:13:14:15.500000",
                 "TIME:13:14:15.500000+02:00",
                 R"(JSON:{"a": [1, 2, {"b": null}], "c": "x"})",
                 R"(JSON:{"a": true, "b": {"c": [1, 2.50]}})",
                 "TEXT:a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
                 "BYTES:00ff10",
                 "JSON:[1,null,3]",
                 R"(JSON:[["a",null],["b\"c",""]])",
                 "TEXT:1 day 02:03:04.5",
                 "TEXT:192.168.0.1/24",
                 "TEXT:10.0.0.0/8",
                 "TEXT:$12.50",
                 "TEXT:happy",
                 "DECIMAL:12.30"};
    rows["2"] = std::vector<std::string>(kColumns.size(), "NULL");
    rows["2"][0] = "INT64:2";
    rows["3"] = {"INT64:3",
                 "INT64:32767",
                 "INT64:-2147483648",
                 "INT64:-9223372036854775808",
                 "NULL",
                 "DECIMAL:-0.5000",
                 "DECIMAL:-99999999999999999999999999999999999999",
                 "NULL",
                 "DECIMAL:1e-07",
                 "BOOL:false",
                 "TEXT:",
                 "TEXT:x",
                 "TEXT:abcde",
                 "TEXT:",
                 "TEXT:",
                 "NULL",
                 "NULL",
                 "NULL",
                 "TIME:00:00:00.000000",
                 "TIME:23:59:59.999999-03:30",
                 "JSON:[]",
                 R"(JSON:"str")",
                 "TEXT:00000000-0000-0000-0000-000000000000",
                 "BYTES:",
                 "JSON:[]",
                 "JSON:[]",
                 "TEXT:-1 years -2 mons +3 days -04:05:06",
                 "TEXT:::1",
                 "TEXT:::/0",
                 "TEXT:-$1.50",
                 "TEXT:sad",
                 "DECIMAL:-0.01"};
    rows["4"] = {
        "INT64:4", "INT64:0", "INT64:0", "INT64:0", "NULL", "DECIMAL:0.0000", "DECIMAL:0",
        "DECIMAL:3.4028235e+38", "DECIMAL:1.7976931348623157e+308", "BOOL:true", "TEXT:x", "TEXT:y",
        "TEXT:z    ", "TEXT:n", "TEXT:c", "NULL", "TIMESTAMP:2000-01-01T00:00:00.000000",
        // Written by a session in America/New_York (the server's zone): 16:00 UTC.
        // 24:00:00 is no RFC 3339 time, and arrays of other dimensions than their columns
        // declare fit no schema (cells.hpp): NULL.
        "TIMESTAMPTZ:2024-07-01T16:00:00.000000+00:00", "NULL", "TIME:00:00:00.000000+00:00",
        "JSON:null", "JSON:{\"k\": \"\xc3\xa9 \xf0\x9f\x98\x80\"}",
        "TEXT:ffffffff-ffff-ffff-ffff-ffffffffffff", "BYTES:deadbeef", "NULL", "NULL",
        "TEXT:00:00:00", "TEXT:0.0.0.0", "TEXT:0.0.0.0/0", "TEXT:$0.00", "TEXT:happy",
        "DECIMAL:0.00"};
    rows["5"] = {"INT64:5",
                 "INT64:1",
                 "INT64:1",
                 "INT64:1",
                 "NULL",
                 "DECIMAL:99999999.9999",
                 "DECIMAL:1",
                 "NULL",
                 "NULL",
                 "BOOL:false",
                 "TEXT:y",
                 "TEXT:z",
                 "TEXT:zz   ",
                 "TEXT:nn",
                 "TEXT:cc",
                 "DATE:9999-12-31",
                 "TIMESTAMP:1999-12-31T23:59:59.999999",
                 "TIMESTAMPTZ:2024-01-01T00:00:00.000001+00:00",
                 "TIME:00:00:00.000001",
                 "TIME:12:00:00.000000-12:00",
                 "JSON:{}",
                 "JSON:[]",
                 "TEXT:a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
                 "BYTES:",
                 "JSON:[-1]",
                 "NULL",  // a one-dimensional array in a text[][] column
                 "TEXT:-00:00:00.000001",
                 "TEXT:255.255.255.255",
                 "TEXT:10.1.0.0/16",
                 "TEXT:-$92,233,720,368,547,758.08",
                 "TEXT:sad",
                 "DECIMAL:99999999.99"};
    return rows;
}

void checkRows(const testing::Rows& rows) {
    auto expected = expectedRows();
    REQUIRE(rows.size() == expected.size());
    for (const auto& row : rows) {
        std::string id = row.at(0).substr(6);
        REQUIRE(expected.count(id) == 1);
        const auto& want = expected[id];
        REQUIRE(row.size() == want.size());
        for (size_t c = 0; c < want.size(); ++c) {
            INFO("id " << id << " column " << kColumns[c]);
            CHECK(row[c] == want[c]);
        }
    }
}

}  // namespace

TEST_CASE("every mapped type arrives with its kind and exact text (fetch)") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    createMatrix(db);
    auto log = std::make_shared<testing::LogLines>();
    auto connection = pgtest::connect(db, {}, log);
    testing::Collector collected;
    connection->fetchRows({"", "tdg_pg_types"}, kColumns, "id", {"1", "2", "3", "4", "5"},
                          collected.callback());
    checkRows(collected.rows);

    // Values the ABI cannot carry became NULL, each column reported once, naming the table and
    // the column, never the value.
    for (const char* column : {"c_num", "c_real", "c_double", "c_date", "c_ts", "c_tstz"}) {
        INFO(column);
        CHECK(log->count("column '" + std::string(column) + "' of table 'tdg_pg_types' holds ") ==
              1);
    }
    CHECK_FALSE(log->contains("column 'c_num124'"));
    CHECK_FALSE(log->contains("NaN'"));
    CHECK_FALSE(log->contains("infinity'"));
}

TEST_CASE("every mapped type arrives with its kind and exact text (scan)") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    createMatrix(db);
    auto log = std::make_shared<testing::LogLines>();
    auto connection = pgtest::connect(db, {}, log);
    testing::Collector collected;
    connection->scanTable({"", "tdg_pg_types"}, kColumns, "id", 2, collected.callback());
    checkRows(collected.rows);
    // NaN, Infinity and -Infinity of c_num span two statements; the read warns once.
    CHECK(log->count("column 'c_num'") == 1);
    CHECK(testing::firstColumn(collected.rows) ==
          std::vector<std::string>{"INT64:1", "INT64:2", "INT64:3", "INT64:4", "INT64:5"});
}

TEST_CASE("describe_table reports kinds, SQL types, precision and JSON schemas") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    createMatrix(db);
    auto connection = pgtest::connect(db);
    auto columns = connection->describeTable({"", "tdg_pg_types"});
    std::map<std::string, core::ColumnDescription> byName =
        testing::describedInOrder(columns, kColumns);
    struct Expect {
        const char* name;
        TdgValueKind kind;
        const char* sqlType;
        const char* schema;
    };
    const Expect expectations[] = {
        {"id", TDG_KIND_INT64, "integer", R"({"type":"integer"})"},
        {"c_int2", TDG_KIND_INT64, "smallint", R"({"type":"integer"})"},
        {"c_int8", TDG_KIND_INT64, "bigint", R"({"type":"integer"})"},
        {"c_num", TDG_KIND_DECIMAL, "numeric", R"({"type":"number"})"},
        {"c_num124", TDG_KIND_DECIMAL, "numeric(12,4)", R"({"type":"number","multipleOf":0.0001})"},
        {"c_num38", TDG_KIND_DECIMAL, "numeric(38,0)", R"({"type":"number"})"},
        {"c_real", TDG_KIND_DECIMAL, "real", R"({"type":"number"})"},
        {"c_double", TDG_KIND_DECIMAL, "double precision", R"({"type":"number"})"},
        {"c_bool", TDG_KIND_BOOL, "boolean", R"({"type":"boolean"})"},
        {"c_text", TDG_KIND_TEXT, "text", R"({"type":"string"})"},
        {"c_varchar", TDG_KIND_TEXT, "character varying(20)", R"({"type":"string"})"},
        {"c_char", TDG_KIND_TEXT, "character(5)", R"({"type":"string"})"},
        {"c_name", TDG_KIND_TEXT, "name", R"({"type":"string"})"},
        {"c_citext", TDG_KIND_TEXT, "citext", R"({"type":"string"})"},
        {"c_date", TDG_KIND_DATE, "date", R"({"type":"string","format":"date"})"},
        {"c_ts", TDG_KIND_TIMESTAMP, "timestamp(6) without time zone",
         R"({"type":"string","format":"date-time"})"},
        {"c_tstz", TDG_KIND_TIMESTAMPTZ, "timestamp with time zone",
         R"({"type":"string","format":"date-time"})"},
        {"c_time", TDG_KIND_TIME, "time without time zone", R"({"type":"string"})"},
        {"c_timetz", TDG_KIND_TIME, "time with time zone", R"({"type":"string","format":"time"})"},
        {"c_json", TDG_KIND_JSON, "json", "{}"},
        {"c_jsonb", TDG_KIND_JSON, "jsonb", "{}"},
        {"c_uuid", TDG_KIND_TEXT, "uuid", R"({"type":"string","format":"uuid"})"},
        {"c_bytea", TDG_KIND_BYTES, "bytea", R"({"type":"string","contentEncoding":"base16"})"},
        {"c_int_arr", TDG_KIND_JSON, "integer[]",
         R"({"type":"array","items":{"type":["integer","null"]}})"},
        {"c_text_arr", TDG_KIND_JSON, "text[]",
         R"({"type":"array","items":{"type":["array","null"],"items":{"type":["string","null"]}}})"},
        {"c_interval", TDG_KIND_TEXT, "interval", R"({"type":"string"})"},
        {"c_inet", TDG_KIND_TEXT, "inet", R"({"type":"string"})"},
        {"c_money", TDG_KIND_TEXT, "money", R"({"type":"string"})"},
        {"c_enum", TDG_KIND_TEXT, "tdg_pg_mood", R"({"type":"string"})"},
        {"c_domain", TDG_KIND_DECIMAL, "tdg_pg_money2", R"({"type":"number","multipleOf":0.01})"},
    };
    for (const Expect& e : expectations) {
        INFO(e.name);
        const auto& column = byName.at(e.name);
        CHECK(column.kind == e.kind);
        CHECK(column.sqlType == e.sqlType);
        CHECK(column.jsonSchema == e.schema);
    }
    CHECK(byName["c_num124"].precision == 12);
    CHECK(byName["c_num124"].scale == 4);
    CHECK(byName["c_domain"].precision == 10);
    CHECK(byName["c_domain"].scale == 2);
    CHECK(byName["c_num"].precision == -1);
    CHECK(byName["c_num"].scale == -1);
    CHECK(byName["c_int4"].precision == -1);
    CHECK(byName["id"].primaryKey);
    CHECK_FALSE(byName["id"].nullable);
    CHECK_FALSE(byName["c_text"].primaryKey);
    CHECK(byName["c_text"].nullable);
}

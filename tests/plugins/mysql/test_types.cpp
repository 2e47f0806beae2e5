// Every MySQL/MariaDB type the plugin maps, with edge values, read back through the real plugin:
// each cell's kind and exact text, the column descriptions, and values far beyond any buffer.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>

#include "mysql_test_support.hpp"

using namespace tapdiffgen;

namespace {

const std::vector<std::string> kColumns = {
    "id",          "c_bool",  "c_tinyint",  "c_tinyint_u", "c_smallint", "c_mediumint",
    "c_int",       "c_int_u", "c_bigint",   "c_bigint_u",  "c_dec124",   "c_dec3810",
    "c_dec",       "c_float", "c_double",   "c_bit1",      "c_bit8",     "c_bit64",
    "c_year",      "c_char",  "c_varchar",  "c_tinytext",  "c_text",     "c_mediumtext",
    "c_longtext",  "c_enum",  "c_set",      "c_json",      "c_json_chk", "c_date",
    "c_dt6",       "c_dt0",   "c_ts6",      "c_time6",     "c_time0",    "c_binary",
    "c_varbinary", "c_blob",  "c_longblob", "c_uuid",      "c_inet6"};

void createMatrix(const testing::DatabaseEnv& db, const std::string& table) {
    // The inserting session states its own zone (the server's is -05:00 too): TIMESTAMP literals
    // are read in the session zone, so the expected UTC instants below are 5 hours later.
    testing::exec(db, mytest::withTable(R"SQL(
SET SESSION sql_mode = '', SESSION time_zone = '-05:00';
DROP TABLE IF EXISTS @T;
CREATE TABLE @T (
  id INT PRIMARY KEY, c_bool TINYINT(1), c_tinyint TINYINT, c_tinyint_u TINYINT UNSIGNED,
  c_smallint SMALLINT, c_mediumint MEDIUMINT, c_int INT, c_int_u INT UNSIGNED, c_bigint BIGINT,
  c_bigint_u BIGINT UNSIGNED, c_dec124 DECIMAL(12,4), c_dec3810 DECIMAL(38,10),
  c_dec DECIMAL(10,0), c_float FLOAT, c_double DOUBLE, c_bit1 BIT(1), c_bit8 BIT(8),
  c_bit64 BIT(64), c_year YEAR, c_char CHAR(5), c_varchar VARCHAR(50), c_tinytext TINYTEXT,
  c_text TEXT, c_mediumtext MEDIUMTEXT, c_longtext LONGTEXT, c_enum ENUM('small','Large'),
  c_set SET('a','b','c'), c_json JSON, c_json_chk LONGTEXT CHECK (json_valid(c_json_chk)),
  c_date DATE, c_dt6 DATETIME(6), c_dt0 DATETIME, c_ts6 TIMESTAMP(6) NULL DEFAULT NULL,
  c_time6 TIME(6), c_time0 TIME, c_binary BINARY(4), c_varbinary VARBINARY(10), c_blob BLOB,
  c_longblob LONGBLOB, c_uuid UUID, c_inet6 INET6
) DEFAULT CHARSET = utf8mb4;
INSERT INTO @T VALUES
 (1, 1, -128, 255, -32768, 8388607, -2147483648, 4294967295, -9223372036854775808,
  18446744073709551615, 1.5, 1234567890123456789012345678.0123456789, -9999999999, 0.1, 0.1,
  b'1', b'10000001', b'1111111111111111111111111111111111111111111111111111111111111111', 2024,
  'ab', 'héllo 😀 "q" \\ end', '', 'x', '😀😀', 'long', 'Large', 'a,c',
  '{"a": [1, 2.50, null], "b": "😀"}', '[1, {"x": "y"}]', '2024-02-29',
  '2024-02-29 13:14:15.123456', '1999-12-31 23:59:59', '2024-02-29 13:14:15.654321',
  '838:59:59.000000', '-838:59:59', X'00FF10', X'DEADBEEF', X'00', X'',
  'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '2001:db8::ff00:42:8329'),
 (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
  NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
  NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
 (3, 0, 127, 0, 32767, -8388608, 2147483647, 0, 9223372036854775807, 0, -0.0001,
  -9999999999999999999999999999.9999999999, 0, -3.4028235e38, 1e-7, b'0', b'0', b'0', 1901,
  'abcde', '', 't', '', '', '', 'small', '', 'null', '"str"', '1000-01-01',
  '9999-12-31 23:59:59.999999', '2000-01-01 00:00:00', '2000-01-01 00:00:00',
  '-838:59:59.000000', '00:00:00', X'00000000', X'', X'', X'00FF',
  '00000000-0000-0000-0000-000000000000', '::'),
 (4, 2, 0, 1, 0, 0, 0, 1, 0, 1, 99999999.9999, 0.0000000001, 1, 1.5, 1.7976931348623157e308,
  b'1', b'11111111', b'1000000000000000000000000000000000000000000000000000000000000001',
  0, ' a', ' ', ' ', ' ', ' ', ' ', 'Large', 'a,b,c', '{}', '[]', '0000-00-00',
  '0000-00-00 00:00:00', '0000-00-00 00:00:00', '0000-00-00 00:00:00',
  '-00:00:00.000001', '12:30:45', X'FFFFFFFF', X'00', X'0102', X'FF', NULL, '::ffff:1.2.3.4');
)SQL",
                                        table));
}

// Expected cells per id, column by column (kColumns order).
std::map<std::string, std::vector<std::string>> expectedRows() {
    std::map<std::string, std::vector<std::string>> rows;
    rows["INT64:1"] = {"INT64:1",
                       "BOOL:true",
                       "INT64:-128",
                       "INT64:255",
                       "INT64:-32768",
                       "INT64:8388607",
                       "INT64:-2147483648",
                       "INT64:4294967295",
                       "INT64:-9223372036854775808",
                       "DECIMAL:18446744073709551615",
                       "DECIMAL:1.5000",
                       "DECIMAL:1234567890123456789012345678.0123456789",
                       "DECIMAL:-9999999999",
                       "DECIMAL:0.1",
                       "DECIMAL:0.1",
                       "BOOL:true",
                       "INT64:129",
                       "DECIMAL:18446744073709551615",
                       "INT64:2024",
                       "TEXT:ab",
                       "TEXT:héllo 😀 \"q\" \\ end",
                       "TEXT:",
                       "TEXT:x",
                       "TEXT:😀😀",
                       "TEXT:long",
                       "TEXT:Large",
                       "TEXT:a,c",
                       "JSON:{\"a\": [1, 2.50, null], \"b\": \"😀\"}",
                       "JSON:[1, {\"x\": \"y\"}]",
                       "DATE:2024-02-29",
                       "TIMESTAMP:2024-02-29T13:14:15.123456",
                       "TIMESTAMP:1999-12-31T23:59:59.000000",
                       "TIMESTAMPTZ:2024-02-29T18:14:15.654321+00:00",
                       "TIME:838:59:59.000000",
                       "TIME:-838:59:59.000000",
                       "BYTES:00ff1000",
                       "BYTES:deadbeef",
                       "BYTES:00",
                       "BYTES:",
                       "TEXT:a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
                       "TEXT:2001:db8::ff00:42:8329"};
    rows["INT64:2"] = std::vector<std::string>(kColumns.size(), "NULL");
    rows["INT64:2"][0] = "INT64:2";
    rows["INT64:3"] = {"INT64:3",
                       "BOOL:false",
                       "INT64:127",
                       "INT64:0",
                       "INT64:32767",
                       "INT64:-8388608",
                       "INT64:2147483647",
                       "INT64:0",
                       "INT64:9223372036854775807",
                       "DECIMAL:0",
                       "DECIMAL:-0.0001",
                       "DECIMAL:-9999999999999999999999999999.9999999999",
                       "DECIMAL:0",
                       "DECIMAL:-3.4028235e+38",
                       "DECIMAL:1e-07",
                       "BOOL:false",
                       "INT64:0",
                       "DECIMAL:0",
                       "INT64:1901",
                       "TEXT:abcde",
                       "TEXT:",
                       "TEXT:t",
                       "TEXT:",
                       "TEXT:",
                       "TEXT:",
                       "TEXT:small",
                       "TEXT:",
                       "JSON:null",
                       "JSON:\"str\"",
                       "DATE:1000-01-01",
                       "TIMESTAMP:9999-12-31T23:59:59.999999",
                       "TIMESTAMP:2000-01-01T00:00:00.000000",
                       "TIMESTAMPTZ:2000-01-01T05:00:00.000000+00:00",
                       "TIME:-838:59:59.000000",
                       "TIME:00:00:00.000000",
                       "BYTES:00000000",
                       "BYTES:",
                       "BYTES:",
                       "BYTES:00ff",
                       "TEXT:00000000-0000-0000-0000-000000000000",
                       "TEXT:::"};
    // Zero dates are no day at all: NULL. tinyint(1) holding 2 is still true.
    rows["INT64:4"] = {"INT64:4",
                       "BOOL:true",
                       "INT64:0",
                       "INT64:1",
                       "INT64:0",
                       "INT64:0",
                       "INT64:0",
                       "INT64:1",
                       "INT64:0",
                       "DECIMAL:1",
                       "DECIMAL:99999999.9999",
                       "DECIMAL:0.0000000001",
                       "DECIMAL:1",
                       "DECIMAL:1.5",
                       "DECIMAL:1.7976931348623157e+308",
                       "BOOL:true",
                       "INT64:255",
                       "DECIMAL:9223372036854775809",
                       "INT64:0",
                       "TEXT: a",
                       "TEXT: ",
                       "TEXT: ",
                       "TEXT: ",
                       "TEXT: ",
                       "TEXT: ",
                       "TEXT:Large",
                       "TEXT:a,b,c",
                       "JSON:{}",
                       "JSON:[]",
                       "NULL",
                       "NULL",
                       "NULL",
                       "NULL",
                       "TIME:-00:00:00.000001",
                       "TIME:12:30:45.000000",
                       "BYTES:ffffffff",
                       "BYTES:00",
                       "BYTES:0102",
                       "BYTES:ff",
                       "NULL",
                       "TEXT:::ffff:1.2.3.4"};
    return rows;
}

testing::Rows fetchAll(core::DialectConnection& conn, const std::string& table) {
    testing::Collector collector;
    conn.fetchRows({"", table}, kColumns, "id", {"1", "2", "3", "4"}, collector.callback());
    return collector.rows;
}

}  // namespace

TEST_CASE("mysql types: every cell has the promised kind and exact text") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    createMatrix(db, "tdg_my_types");
    auto conn = mytest::connect(db);

    testing::Rows rows = fetchAll(*conn, "tdg_my_types");
    auto expected = expectedRows();
    REQUIRE(rows.size() == expected.size());
    for (const auto& row : rows) {
        REQUIRE(row.size() == kColumns.size());
        const auto& want = expected.at(row[0]);
        for (size_t c = 0; c < kColumns.size(); ++c) {
            INFO("row " << row[0] << ", column " << kColumns[c]);
            CHECK(row[c] == want[c]);
        }
    }

    // The same through a scan (another statement shape, keyset pages of 3).
    testing::Collector scanned;
    conn->scanTable({"", "tdg_my_types"}, kColumns, "id", 3, scanned.callback());
    CHECK(scanned.rows == testing::Rows{expected["INT64:1"], expected["INT64:2"],
                                        expected["INT64:3"], expected["INT64:4"]});
}

// fetch_rows_many reads through the text protocol (multi-statement queries): every value must
// decode to the same cell as through a prepared statement.
TEST_CASE("mysql types: fetch_rows_many gives every cell exactly as fetch_rows") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    createMatrix(db, "tdg_my_types_many");
    // Values whose text forms lose digits: FLOAT's own text has six, DOUBLE(m,d)'s has d
    // decimals, and the fractions of TIME(3) and DATETIME(2) are shorter than six digits.
    testing::exec(db, R"SQL(
SET SESSION sql_mode = '';
DROP TABLE IF EXISTS tdg_my_types_reals;
CREATE TABLE tdg_my_types_reals (id INT PRIMARY KEY, f FLOAT, d DOUBLE, f74 FLOAT(7,4),
  d103 DOUBLE(10,3), t3 TIME(3), dt2 DATETIME(2), y YEAR, b10 BIT(10));
INSERT INTO tdg_my_types_reals VALUES
  (1, 1.2345678, 1/3e0, 1.2345678, 1.23456, '-00:00:00.001', '2024-01-02 03:04:05.06', 1999,
   b'1000000001'),
  (2, 16777217, 0.1e0 + 0.2e0, -345.6789, 123456.789, '100:00:00.5', '0000-00-00 00:00:00',
   0, b'0'),
  (3, 3.4028234e38, 4.9e-324, 0, 2.2250738585072014e-308, '-838:59:59', '1000-01-01', 2155,
   b'1111111111'),
  (4, 1e-45, -2.5e-300, 3.3, -0.001, '00:00:00', '9999-12-31 23:59:59.99', NULL, NULL);
)SQL");
    auto conn = mytest::connect(db);
    const std::vector<std::string> reals = {"id", "f", "d", "f74", "d103", "t3", "dt2", "y", "b10"};
    const std::vector<std::string> keys = {"1", "2", "3", "4"};
    std::vector<testing::Fetch> fetches = {
        {{"", "tdg_my_types_many"}, kColumns, "id", keys},
        {{"", "tdg_my_types_reals"}, reals, "id", keys},
    };
    testing::ManyCollector collected(fetches.size());
    testing::fetchMany(*conn, fetches, collected);

    auto expected = expectedRows();
    testing::Rows matrix;
    for (const auto& [id, row] : expected) matrix.push_back(row);
    std::sort(matrix.begin(), matrix.end());
    CHECK(collected.sorted(0) == matrix);

    testing::Collector one;
    conn->fetchRows({"", "tdg_my_types_reals"}, reals, "id", keys, one.callback());
    std::sort(one.rows.begin(), one.rows.end());
    REQUIRE(one.rows.size() == 4);
    testing::Rows many = collected.sorted(1);
    REQUIRE(many.size() == 4);
    for (size_t r = 0; r < 4; ++r) {
        for (size_t c = 0; c < reals.size(); ++c) {
            INFO("row " << one.rows[r][0] << ", column " << reals[c]);
            CHECK(many[r][c] == one.rows[r][c]);
        }
    }
    // The binary protocol's own values, so that the comparison above compares something.
    CHECK(one.rows[0][1] == "DECIMAL:1.2345678");
    CHECK(one.rows[0][2] == "DECIMAL:0.3333333333333333");
    CHECK(one.rows[1][4] == "DECIMAL:123456.789");
}

TEST_CASE("mysql types: describe_table reports kinds that match the cells") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    createMatrix(db, "tdg_my_types_described");
    auto conn = mytest::connect(db);

    auto columns = conn->describeTable({"", "tdg_my_types_described"});
    std::map<std::string, core::ColumnDescription> byName =
        testing::describedInOrder(columns, kColumns);

    // Kinds agree with every non-NULL cell of the matrix.
    for (const auto& [id, row] : expectedRows()) {
        for (size_t c = 0; c < kColumns.size(); ++c) {
            if (row[c] == "NULL") continue;
            INFO("column " << kColumns[c] << ", id " << id);
            CHECK(testing::kindName(byName[kColumns[c]].kind) ==
                  row[c].substr(0, row[c].find(':')));
        }
    }

    CHECK(byName["id"].primaryKey);
    CHECK_FALSE(byName["id"].nullable);
    CHECK(byName["c_int"].nullable);
    CHECK_FALSE(byName["c_int"].primaryKey);
    CHECK(byName["c_bool"].sqlType == "tinyint(1)");
    CHECK(byName["c_bool"].jsonSchema == R"({"type":"boolean"})");
    CHECK(byName["c_tinyint"].jsonSchema == R"({"type":"integer"})");
    CHECK(byName["c_bigint_u"].sqlType == "bigint(20) unsigned");
    CHECK(byName["c_bigint_u"].jsonSchema == R"({"type":"integer"})");
    CHECK(byName["c_bit64"].jsonSchema == R"({"type":"integer"})");
    CHECK(byName["c_dec124"].sqlType == "decimal(12,4)");
    CHECK(byName["c_dec124"].precision == 12);
    CHECK(byName["c_dec124"].scale == 4);
    CHECK(byName["c_dec124"].jsonSchema == R"({"type":"number","multipleOf":0.0001})");
    CHECK(byName["c_dec3810"].jsonSchema == R"({"type":"number"})");  // 38 digits > 28
    CHECK(byName["c_double"].jsonSchema == R"({"type":"number"})");
    CHECK(byName["c_json"].jsonSchema == "{}");
    CHECK(byName["c_json_chk"].jsonSchema == "{}");
    CHECK(byName["c_json_chk"].sqlType == "longtext");
    CHECK(byName["c_longtext"].kind == TDG_KIND_TEXT);
    CHECK(byName["c_date"].jsonSchema == R"({"type":"string","format":"date"})");
    CHECK(byName["c_ts6"].jsonSchema == R"({"type":"string","format":"date-time"})");
    // A TIME is a duration (±838 hours), which format time could not hold.
    CHECK(byName["c_time6"].jsonSchema == R"({"type":"string"})");
    CHECK(byName["c_longblob"].jsonSchema == R"({"type":"string","contentEncoding":"base16"})");
    CHECK(byName["c_enum"].sqlType == "enum('small','Large')");
}

TEST_CASE("mysql types: 10 MB LONGTEXT, JSON and LONGBLOB values arrive whole") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    // 10 MiB of text with 4-byte characters, a JSON document of the same size, and 10 MiB of
    // bytes covering every byte value.
    testing::exec(db, R"SQL(
DROP TABLE IF EXISTS tdg_my_big;
CREATE TABLE tdg_my_big (id INT PRIMARY KEY, t LONGTEXT, j JSON, b LONGBLOB, small VARCHAR(10))
  DEFAULT CHARSET = utf8mb4;
INSERT INTO tdg_my_big VALUES
  (1, REPEAT('ab😀é', 1310720), CONCAT('["', REPEAT('x', 10485755), '"]'),
   REPEAT(UNHEX('000102FEFF80'), 1747627), 'tail'),
  (2, 'short', '{"k": 1}', X'01', 'tail2'),
  (3, REPEAT('z', 70000), '[]', REPEAT(X'AB', 70000), 'tail3');
)SQL");
    auto conn = mytest::connect(db);

    std::map<int64_t, std::vector<std::string>> values;
    std::vector<int64_t> batches;
    conn->fetchRows({"", "tdg_my_big"}, {"id", "t", "j", "b", "small"}, "id", {"1", "2", "3"},
                    [&](const TdgRowBatch& batch) {
                        batches.push_back(batch.num_rows);
                        for (int64_t r = 0; r < batch.num_rows; ++r) {
                            const TdgCell* row = batch.cells + r * batch.num_columns;
                            std::vector<std::string> cells;
                            for (int c = 1; c < batch.num_columns; ++c) {
                                cells.emplace_back(row[c].data, static_cast<size_t>(row[c].size));
                            }
                            CHECK(row[1].kind == TDG_KIND_TEXT);
                            CHECK(row[2].kind == TDG_KIND_JSON);
                            CHECK(row[3].kind == TDG_KIND_BYTES);
                            values[row[0].i64] = std::move(cells);
                        }
                    });
    REQUIRE(values.size() == 3);

    std::string text;
    for (int i = 0; i < 1310720; ++i) text += "ab😀é";
    CHECK(values[1][0].size() == text.size());
    CHECK(values[1][0] == text);
    CHECK(values[1][1] == "[\"" + std::string(10485755, 'x') + "\"]");
    std::string bytes;
    const std::string pattern("\x00\x01\x02\xfe\xff\x80", 6);
    for (int i = 0; i < 1747627; ++i) bytes += pattern;
    CHECK(values[1][2].size() == bytes.size());
    CHECK(values[1][2] == bytes);
    CHECK(values[1][3] == "tail");
    CHECK(values[2] == std::vector<std::string>{"short", "{\"k\": 1}", "\x01", "tail2"});
    CHECK(values[3][0] == std::string(70000, 'z'));
    CHECK(values[3][2] == std::string(70000, '\xab'));
    CHECK(values[3][3] == "tail3");
}

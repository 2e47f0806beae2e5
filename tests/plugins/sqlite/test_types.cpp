// The type matrix: every declared type's kind and JSON schema, and every stored value of every
// storage class read through fetch and scan alike (NULLs, emoji, decimal scale, 64-bit
// extremes, blobs, JSON, timestamps with offsets, and values a column's kind cannot carry).
#include <doctest/doctest.h>

#include <algorithm>
#include <map>

#include "sqlite_test_support.hpp"

using namespace tapdiffgen;
using testing::Rows;

namespace {

const char* kTypesTable = R"SQL(
CREATE TABLE types (
    id INTEGER PRIMARY KEY,
    i INT, bi BIGINT, ubi UNSIGNED BIG INT, b BOOLEAN, bo BOOL,
    r REAL, f FLOAT, d DOUBLE, dp DOUBLE PRECISION,
    n NUMERIC, n4 NUMERIC(12,4), d2 decimal(10, 2),
    t TEXT, vc VARCHAR(20), nc NCHAR(3), cl CLOB,
    bl BLOB, dt DATE, dtt DATETIME, ts TIMESTAMP, tm TIME, j JSON,
    untyped, money MONEY, point POINT NOT NULL DEFAULT 0
);
INSERT INTO types VALUES (1,
    42, 9223372036854775807, -9223372036854775808, TRUE, 'false',
    1.5, 0.1, 1e300, -2.5e-10,
    '123.456', '1.5000', '10',
    'héllo 😀', 'abc', 'xy', 'clob',
    x'00ff10', '2024-02-29', '2024-02-29 13:14:15', '2024-02-29T13:14:15.123456+02:00',
    '13:14:15.5', '{"a":[1,2,{"b":null}],"e":"😀"}',
    'free text', 12.25, 7);
INSERT INTO types (id) VALUES (2);
INSERT INTO types VALUES (3,
    1.5, '12abc', 3.0, 0, 'yes',
    'not a number', 9e999, 5, NULL,
    'abc', 2, '-0.5',
    12, x'414243', NULL, '',
    'text in blob', '2024-02-30', '2024-03-01 00:30', '2024-03-01 01:00:00+02:00',
    'noon', 'not json',
    2.5, 'n/a', 0);
INSERT INTO types (id, n4, dtt, j, r, ts) VALUES
    (4, -7.25, '2024-02-29', 5, 1e-7, '2024-02-29T23:59:59.9999999Z');
)SQL";

const std::vector<std::string> kExpectedRow1 = {"INT64:1",
                                                "INT64:42",
                                                "INT64:9223372036854775807",
                                                "INT64:-9223372036854775808",
                                                "BOOL:true",
                                                "BOOL:false",
                                                "DECIMAL:1.5",
                                                "DECIMAL:0.1",
                                                "DECIMAL:1e+300",
                                                "DECIMAL:-2.5e-10",
                                                "DECIMAL:123.456",
                                                "DECIMAL:1.5000",
                                                "DECIMAL:10.00",
                                                "TEXT:héllo 😀",
                                                "TEXT:abc",
                                                "TEXT:xy",
                                                "TEXT:clob",
                                                "BYTES:00ff10",
                                                "DATE:2024-02-29",
                                                "TIMESTAMP:2024-02-29T13:14:15.000000",
                                                "TIMESTAMP:2024-02-29T11:14:15.123456",
                                                "TIME:13:14:15.500000",
                                                R"(JSON:{"a":[1,2,{"b":null}],"e":"😀"})",
                                                "TEXT:free text",
                                                "DECIMAL:12.25",
                                                "INT64:7"};

const std::vector<std::string> kExpectedRow3 = {"INT64:3",
                                                "NULL",  // 1.5 in an INTEGER column stays REAL
                                                "NULL",  // '12abc' stays TEXT
                                                "INT64:3",
                                                "BOOL:false",
                                                "BOOL:true",
                                                "NULL",  // text in a REAL column
                                                "NULL",  // Infinity
                                                "DECIMAL:5",
                                                "NULL",
                                                "NULL",  // 'abc' in NUMERIC
                                                "DECIMAL:2.0000",
                                                "DECIMAL:-0.50",
                                                "TEXT:12",
                                                "TEXT:ABC",
                                                "NULL",
                                                "TEXT:",
                                                "BYTES:7465787420696e20626c6f62",
                                                "NULL",  // 2024-02-30
                                                "TIMESTAMP:2024-03-01T00:30:00.000000",
                                                "TIMESTAMP:2024-02-29T23:00:00.000000",
                                                "NULL",  // noon
                                                "NULL",  // not json
                                                "TEXT:2.5",
                                                "NULL",  // 'n/a' in MONEY (NUMERIC affinity)
                                                "INT64:0"};

std::vector<std::string> allColumns(core::DialectConnection& connection) {
    return testing::columnNames(connection.describeTable({"", "types"}));
}

Rows sortedByKey(Rows rows) {
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
        return a.at(0).size() < b.at(0).size() ||
               (a.at(0).size() == b.at(0).size() && a.at(0) < b.at(0));
    });
    return rows;
}

}  // namespace

TEST_CASE("declared types map to kinds, SQL types, scales and JSON schemas") {
    sqlitetest::TempDatabase db;
    db.exec(kTypesTable);
    auto connection = sqlitetest::connect(db.path());
    std::map<std::string, core::ColumnDescription> byName;
    int ordinal = 0;
    for (const auto& column : connection->describeTable({"", "types"})) {
        CHECK(column.ordinal == ++ordinal);
        byName[column.name] = column;
    }
    REQUIRE(byName.size() == 26);

    auto kindOf = [&](const char* name) { return byName.at(name).kind; };
    for (const char* name : {"id", "i", "bi", "ubi", "point"}) {
        CHECK_MESSAGE(kindOf(name) == TDG_KIND_INT64, name);
    }
    CHECK(kindOf("b") == TDG_KIND_BOOL);
    CHECK(kindOf("bo") == TDG_KIND_BOOL);
    for (const char* name : {"r", "f", "d", "dp", "n", "n4", "d2", "money"}) {
        CHECK_MESSAGE(kindOf(name) == TDG_KIND_DECIMAL, name);
    }
    for (const char* name : {"t", "vc", "nc", "cl", "untyped"}) {
        CHECK_MESSAGE(kindOf(name) == TDG_KIND_TEXT, name);
    }
    CHECK(kindOf("bl") == TDG_KIND_BYTES);
    CHECK(kindOf("dt") == TDG_KIND_DATE);
    CHECK(kindOf("dtt") == TDG_KIND_TIMESTAMP);
    CHECK(kindOf("ts") == TDG_KIND_TIMESTAMP);
    CHECK(kindOf("tm") == TDG_KIND_TIME);
    CHECK(kindOf("j") == TDG_KIND_JSON);

    CHECK(byName.at("n4").sqlType == "NUMERIC(12,4)");
    CHECK(byName.at("n4").precision == 12);
    CHECK(byName.at("n4").scale == 4);
    CHECK(byName.at("n4").jsonSchema == R"({"type":"number","multipleOf":0.0001})");
    CHECK(byName.at("d2").sqlType == "decimal(10, 2)");
    CHECK(byName.at("d2").scale == 2);
    CHECK(byName.at("n").scale == -1);
    CHECK(byName.at("r").jsonSchema == R"({"type":"number"})");
    CHECK(byName.at("untyped").sqlType.empty());
    CHECK(byName.at("ubi").sqlType == "UNSIGNED BIG INT");
    CHECK(byName.at("bl").jsonSchema == R"({"type":"string","contentEncoding":"base16"})");
    CHECK(byName.at("ts").jsonSchema == R"({"type":"string","format":"date-time"})");
    CHECK(byName.at("j").jsonSchema == "{}");

    CHECK(byName.at("id").primaryKey);
    CHECK_FALSE(byName.at("id").nullable);  // INTEGER PRIMARY KEY is the rowid
    CHECK_FALSE(byName.at("point").nullable);
    CHECK(byName.at("i").nullable);
    CHECK_FALSE(byName.at("i").primaryKey);
}

TEST_CASE("every storage class of every kind reads the same through fetch and scan") {
    sqlitetest::TempDatabase db;
    db.exec(kTypesTable);
    auto log = std::make_shared<testing::LogLines>();
    auto connection = sqlitetest::connect(db.path(), {}, log);
    std::vector<std::string> columns = allColumns(*connection);

    testing::Collector fetched;
    connection->fetchRows({"", "types"}, columns, "id", {"1", "2", "3", "4"}, fetched.callback());
    Rows scanned = sqlitetest::scanAll(*connection, "types", "id");
    REQUIRE(scanned.size() == 4);
    CHECK(sortedByKey(fetched.rows) == scanned);

    CHECK(scanned[0] == kExpectedRow1);
    std::vector<std::string> allNull(columns.size(), "NULL");
    allNull[0] = "INT64:2";
    allNull[25] = "INT64:0";  // point's default
    CHECK(scanned[1] == allNull);
    CHECK(scanned[2] == kExpectedRow3);

    const auto& row4 = scanned[3];
    CHECK(row4[6] == "DECIMAL:1e-07");
    CHECK(row4[11] == "DECIMAL:-7.2500");
    CHECK(row4[19] == "TIMESTAMP:2024-02-29T00:00:00.000000");
    CHECK(row4[20] == "TIMESTAMP:2024-02-29T23:59:59.999999");
    CHECK(row4[22] == "JSON:5");
}

TEST_CASE("values a column's kind cannot carry are warned about once per column, without data") {
    sqlitetest::TempDatabase db;
    db.exec(kTypesTable);
    auto log = std::make_shared<testing::LogLines>();
    auto connection = sqlitetest::connect(db.path(), {}, log);
    std::vector<std::string> columns = allColumns(*connection);
    for (int round = 0; round < 2; ++round) {
        testing::Collector rows;
        connection->fetchRows({"", "types"}, columns, "id", {"3"}, rows.callback());
        REQUIRE(rows.rows.size() == 1);
    }
    CHECK(log->count("column 'i' of table 'types' holds a REAL value that is not a 64-bit "
                     "integer; sent as null") == 1);
    CHECK(log->count("column 'bi' of table 'types' holds a TEXT value") == 1);
    CHECK(log->count("column 'f' of table 'types' holds a REAL value that is not a finite "
                     "number") == 1);
    CHECK(log->count("column 'j' of table 'types' holds a TEXT value that is not valid JSON") == 1);
    CHECK(log->count("column 'dt' of table 'types'") == 1);
    CHECK(log->count("column 'tm' of table 'types'") == 1);
    CHECK(log->count("column 'money' of table 'types'") == 1);
    CHECK_FALSE(log->contains("12abc"));
    CHECK_FALSE(log->contains("not json"));
    std::lock_guard<std::mutex> lock(log->mutex);
    for (const auto& [level, line] : log->lines) {
        if (line.find("sent as null") != std::string::npos) CHECK(level == TDG_LOG_WARNING);
    }
}

TEST_CASE("64-bit extremes and big values round-trip as keys and values") {
    sqlitetest::TempDatabase db;
    db.exec(R"SQL(
CREATE TABLE big (k INTEGER PRIMARY KEY, v BIGINT, d NUMERIC(30,2), blob BLOB);
INSERT INTO big VALUES (9223372036854775807, -1, '12345678901234567890.12', zeroblob(100000)),
                       (-9223372036854775808, 0, NULL, x''),
                       (0, 1, 0.125, NULL);
)SQL");
    auto connection = sqlitetest::connect(db.path());
    testing::Collector rows;
    connection->fetchRows({"", "big"}, {"k", "v", "d", "blob"}, "k",
                          {"9223372036854775807", "-9223372036854775808", "0"}, rows.callback());
    Rows sorted = sortedByKey(rows.rows);
    REQUIRE(sorted.size() == 3);
    std::map<std::string, std::vector<std::string>> byKey;
    for (const auto& row : rows.rows) byKey[row[0]] = row;
    const auto& top = byKey.at("INT64:9223372036854775807");
    CHECK(top[1] == "INT64:-1");
    // More than 15 digits: SQLite stored a REAL; its exact value is sent with the scale.
    CHECK(top[2] == "DECIMAL:12345678901234567168.00");
    CHECK(top[3] == "BYTES:" + std::string(200000, '0'));
    const auto& bottom = byKey.at("INT64:-9223372036854775808");
    CHECK(bottom[2] == "NULL");
    CHECK(bottom[3] == "BYTES:");
    // 0.125 is exact in binary: a true tie, rounded to even like printf does.
    CHECK(byKey.at("INT64:0")[2] == "DECIMAL:0.12");
}

TEST_CASE("a column declared UUID sends uuids as their canonical lower-case text") {
    sqlitetest::TempDatabase db;
    db.exec(R"SQL(
CREATE TABLE ids (id INTEGER PRIMARY KEY, u UUID);
INSERT INTO ids VALUES (1, 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'),
    (2, x'a0eebc999c0b4ef8bb6d6bb9bd380a11'), (3, 'not a uuid'), (4, 7);
)SQL");
    auto log = std::make_shared<testing::LogLines>();
    auto connection = sqlitetest::connect(db.path(), {}, log);
    auto columns = connection->describeTable({"", "ids"});
    REQUIRE(columns.size() == 2);
    CHECK(columns[1].kind == TDG_KIND_TEXT);
    CHECK(columns[1].jsonSchema == R"({"type":"string","format":"uuid"})");
    Rows scanned = sqlitetest::scanAll(*connection, "ids", "id");
    REQUIRE(scanned.size() == 4);
    CHECK(scanned[0][1] == "TEXT:a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
    CHECK(scanned[1][1] == "TEXT:a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
    CHECK(scanned[2][1] == "NULL");
    CHECK(scanned[3][1] == "NULL");
    CHECK(log->count("column 'u' of table 'ids' holds a TEXT value that is not a uuid") == 1);
    CHECK(log->count("column 'u' of table 'ids' holds an INTEGER value that is not a uuid") == 1);
}

// Every column type of each dialect through the real binary: each column's JSON schema in the
// SCHEMA message and each value in the RECORD lines, compared as written (number text
// included) with expectations written from the type specification; also a row of NULLs, a
// tombstone, the warnings for values sent as NULL, and the same rows read again by a snapshot.
// Every RECORD of both runs must also be valid under its SCHEMA, formats asserted
// (support/schema_validator.hpp): the values at the edges of what a schema can hold (years 0001
// and 10000, 24:00:00, MySQL's TIME of ±838 hours) are here for that.
#include <doctest/doctest.h>

#include <map>
#include <regex>
#include <set>

#include "dialect_fixture.hpp"
#include "support/exact_json.hpp"
#include "support/schema_validator.hpp"

using namespace tapdiffgen::testing;

namespace {

// One inserted SQL literal and the JSON the tap must write for it.
struct Cell {
    std::string sql;
    std::string json;
};

struct Column {
    std::string name;
    std::string sqlType;
    std::string schema;       // in the SCHEMA message (every column but the key is nullable)
    std::vector<Cell> cells;  // one per valued row: ids 1, 2, ...
};

struct TypeMatrix {
    std::string setupSql;  // run before the table is made: the types its columns use
    std::vector<Column> columns;
    std::vector<std::string> rowSessions;     // run before each valued row's INSERT, same session
    std::set<std::string> columnsSentAsNull;  // a value of each is replaced by NULL, with a warning
};

const char* kUtcMicros = R"(^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$)";

template <class Names>
std::string joined(const Names& names) {
    std::string text;
    for (const auto& name : names) text += (text.empty() ? "" : ",") + name;
    return text;
}

// The members of every record and of the schema's properties, in table order.
std::vector<std::string> memberNamesOf(const TypeMatrix& matrix) {
    std::vector<std::string> names = {"id"};
    for (const Column& column : matrix.columns) names.push_back(column.name);
    names.insert(names.end(), {"is_deleted", "_sdc_diffgen_ts_created", "_sdc_deleted_at"});
    return names;
}

size_t valuedRows(const TypeMatrix& matrix) { return matrix.columns.front().cells.size(); }

std::string insertRow(const TypeMatrix& matrix, const std::string& table, size_t row, size_t id) {
    std::string names = "id";
    std::string values = std::to_string(id);
    for (const Column& column : matrix.columns) {
        names += ", " + column.name;
        values += ", " + column.cells.at(row).sql;
    }
    return matrix.rowSessions.at(row) + "INSERT INTO " + table + " (" + names + ") VALUES (" +
           values + ")";
}

void checkSchema(const ExactJson& message, const TypeMatrix& matrix) {
    CHECK(message.at("key_properties").canonical() == R"(["id"])");
    const ExactJson& properties = message.at("schema").at("properties");
    CHECK(joined(properties.memberNames()) == joined(memberNamesOf(matrix)));

    CHECK(properties.at("id").canonical() == canonicalJson(R"({"type":"integer"})"));
    for (const Column& column : matrix.columns) {
        INFO("schema of " << column.name << " (" << column.sqlType << ")");
        CHECK(properties.at(column.name).canonical() == canonicalJson(column.schema));
    }
    CHECK(properties.at("is_deleted").canonical() == canonicalJson(R"({"type":"boolean"})"));
    CHECK(properties.at("_sdc_diffgen_ts_created").canonical() ==
          canonicalJson(R"({"type":"string","format":"date-time"})"));
    CHECK(properties.at("_sdc_deleted_at").canonical() ==
          canonicalJson(R"({"type":["string","null"],"format":"date-time"})"));
    CHECK(message.at("schema").at("required").canonical() == R"(["id"])");
}

// `row` indexes the valued rows; past them the record must hold NULL in every column.
void checkLiveRecord(const ExactJson& record, const TypeMatrix& matrix, size_t row, size_t id) {
    CHECK(record.at("id").canonical() == std::to_string(id));
    for (const Column& column : matrix.columns) {
        std::string expected = row < valuedRows(matrix) ? column.cells[row].json : "null";
        INFO("id " << id << ", " << column.name << " (" << column.sqlType << ")");
        CHECK(record.at(column.name).canonical() == canonicalJson(expected));
    }
    CHECK(record.at("is_deleted").canonical() == "false");
    CHECK(record.at("_sdc_deleted_at").isNull());
}

void checkMetadata(const ExactJson& record, const TypeMatrix& matrix) {
    CHECK(joined(record.memberNames()) == joined(memberNamesOf(matrix)));
    const ExactJson& created = record.at("_sdc_diffgen_ts_created");
    CHECK(created.type() == ExactJson::Type::String);
    CHECK_MESSAGE(std::regex_match(created.scalar(), std::regex(kUtcMicros)), created.scalar());
}

// Records of `stream` by id; every stdout line must be one valid JSON message.
std::map<std::string, ExactJson> parseRun(const TapRun& run, const std::string& stream,
                                          std::vector<ExactJson>& schemas) {
    std::map<std::string, ExactJson> records;
    for (const auto& line : run.lines) {
        ExactJson message;
        REQUIRE_NOTHROW_MESSAGE(message = ExactJson::parse(line), line);
        const std::string& type = message.at("type").scalar();
        if (type == "SCHEMA" && message.at("stream").scalar() == stream) {
            schemas.push_back(message);
        } else if (type == "RECORD" && message.at("stream").scalar() == stream) {
            const ExactJson& record = message.at("record");
            std::string id = record.at("id").canonical();
            CHECK_MESSAGE(records.count(id) == 0, "id " << id << " emitted twice");
            records[id] = record;
        }
    }
    return records;
}

// Every RECORD valid under the SCHEMA before it, and no raw line break a line reader would cut
// the message at (U+0085, U+2028, U+2029: valid JSON, escaped all the same).
void checkEveryRecordValid(const TapRun& run) {
    for (const std::string& problem : outputViolations(run.lines)) FAIL_CHECK(problem);
    for (const std::string& line : run.lines) {
        for (const char* lineBreak : {"\xC2\x85", "\xE2\x80\xA8", "\xE2\x80\xA9"}) {
            CHECK_MESSAGE(line.find(lineBreak) == std::string::npos, line);
        }
    }
}

std::set<std::string> columnsWarnedAsNull(const std::string& stderrText, const std::string& table) {
    std::set<std::string> columns;
    std::regex warning("column '([a-z0-9_]+)' of table '" + table + "' [^;]*; sent as null");
    for (std::sregex_iterator it(stderrText.begin(), stderrText.end(), warning), end; it != end;
         ++it) {
        columns.insert((*it)[1]);
    }
    return columns;
}

void everyTypeArrivesExact(const DatabaseEnv& env, const TypeMatrix& matrix) {
    // The PostgreSQL matrix's own types carry the same prefix.
    JournalledSchema schema(env, "type_matrix");
    const std::string table = schema.table("types");
    schema.exec("DROP TABLE IF EXISTS " + table);
    if (!matrix.setupSql.empty()) schema.exec(matrix.setupSql);
    std::string columnsSql = "id INTEGER PRIMARY KEY";
    for (const Column& column : matrix.columns) {
        REQUIRE_MESSAGE(column.cells.size() == valuedRows(matrix), column.name);
        columnsSql += ", " + column.name + " " + column.sqlType;
    }
    schema.createTable("types", columnsSql, "id");

    const size_t valued = valuedRows(matrix);
    for (size_t row = 0; row < valued; ++row) schema.exec(insertRow(matrix, table, row, row + 1));
    const size_t nullId = valued + 1;
    schema.exec("INSERT INTO " + table + " (id) VALUES (" + std::to_string(nullId) + ")");
    const size_t deletedId = valued + 2;
    schema.exec(insertRow(matrix, table, 0, deletedId));
    schema.exec("DELETE FROM " + table + " WHERE id = " + std::to_string(deletedId));

    ScratchDir dir;
    TapRun run = runTapBinary({"--config", schema.writeConfig(dir, {table})});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    checkEveryRecordValid(run);
    std::vector<ExactJson> schemas;
    auto records = parseRun(run, table, schemas);
    REQUIRE(schemas.size() == 1);
    checkSchema(schemas.front(), matrix);

    REQUIRE(records.size() == deletedId);
    for (size_t id = 1; id <= nullId; ++id) {
        const ExactJson& record = records.at(std::to_string(id));
        checkMetadata(record, matrix);
        checkLiveRecord(record, matrix, id - 1, id);
    }
    const ExactJson& tombstone = records.at(std::to_string(deletedId));
    checkMetadata(tombstone, matrix);
    for (const Column& column : matrix.columns) {
        INFO("tombstone " << column.name);
        CHECK(tombstone.at(column.name).isNull());
    }
    CHECK(tombstone.at("is_deleted").canonical() == "true");
    const ExactJson& deletedAt = tombstone.at("_sdc_deleted_at");
    CHECK(deletedAt.type() == ExactJson::Type::String);
    CHECK_MESSAGE(std::regex_match(deletedAt.scalar(), std::regex(kUtcMicros)), deletedAt.scalar());
    CHECK(joined(columnsWarnedAsNull(run.stderrText, table)) == joined(matrix.columnsSentAsNull));

    // A snapshot reads the same rows with another statement (a keyset scan, not a fetch by key).
    std::string snapshotConfig =
        dir.write("snapshot.json", env.configPrefix() + R"(,"diffgen_table":")" +
                                       schema.diffgenTable() + R"(","tables":[{"table_name":")" +
                                       table + R"(","pk_column":"id","start_from":"snapshot"}]})");
    TapRun snapshot = runTapBinary({"--config", snapshotConfig});
    REQUIRE_MESSAGE(snapshot.exitCode == 0, snapshot.stderrText);
    checkEveryRecordValid(snapshot);
    std::vector<ExactJson> snapshotSchemas;
    auto scanned = parseRun(snapshot, table, snapshotSchemas);
    REQUIRE(scanned.size() == nullId);
    for (size_t id = 1; id <= nullId; ++id) {
        checkLiveRecord(scanned.at(std::to_string(id)), matrix, id - 1, id);
    }
}

TypeMatrix postgresMatrix() {
    TypeMatrix matrix;
    matrix.setupSql = R"SQL(
CREATE EXTENSION IF NOT EXISTS citext;
DROP TYPE IF EXISTS type_matrix_mood;
DROP DOMAIN IF EXISTS type_matrix_money2;
DROP DOMAIN IF EXISTS type_matrix_money1;
CREATE TYPE type_matrix_mood AS ENUM ('sad', 'happy');
CREATE DOMAIN type_matrix_money1 AS numeric(10,2);
CREATE DOMAIN type_matrix_money2 AS type_matrix_money1;
)SQL";
    const char* integer = R"({"type":["integer","null"]})";
    const char* number = R"({"type":["number","null"]})";
    const char* string = R"({"type":["string","null"]})";
    matrix.columns = {
        {"c_int2",
         "smallint",
         integer,
         {{"-32768", "-32768"}, {"32767", "32767"}, {"0", "0"}, {"1", "1"}}},
        {"c_int4",
         "integer",
         integer,
         {{"2147483647", "2147483647"}, {"-2147483648", "-2147483648"}, {"0", "0"}, {"1", "1"}}},
        {"c_int8",
         "bigint",
         integer,
         {{"9223372036854775807", "9223372036854775807"},
          {"-9223372036854775808", "-9223372036854775808"},
          {"0", "0"},
          {"1", "1"}}},
        // NaN and ±Infinity are no JSON number: NULL, with a warning.
        {"c_num",
         "numeric",
         number,
         {{"123456789012345678901234567890", "123456789012345678901234567890"},
          {"'NaN'", "null"},
          {"'Infinity'", "null"},
          {"'-Infinity'", "null"}}},
        {"c_num124",
         "numeric(12,4)",
         R"({"type":["number","null"],"multipleOf":0.0001})",
         {{"1.5", "1.5000"},
          {"-0.5", "-0.5000"},
          {"0", "0.0000"},
          {"99999999.9999", "99999999.9999"}}},
        {"c_num122",
         "numeric(12,2)",
         R"({"type":["number","null"],"multipleOf":0.01})",
         {{"1234567890.12", "1234567890.12"},
          {"-0.1", "-0.10"},
          {"0", "0.00"},
          {"9999999999.99", "9999999999.99"}}},
        // Past 28 digits no multipleOf: Python's default decimal context cannot check it.
        {"c_num3808",
         "numeric(38,8)",
         R"({"type":["number","null"]})",
         {{"1234567890123456789012.12345678", "1234567890123456789012.12345678"},
          {"-0.00000001", "-0.00000001"},
          {"0", "0.00000000"},
          {"999999999999999999999999999999.99999999", "999999999999999999999999999999.99999999"}}},
        {"c_num38",
         "numeric(38,0)",
         R"({"type":["number","null"]})",
         {{"12345678901234567890123456789012345678", "12345678901234567890123456789012345678"},
          {"-99999999999999999999999999999999999999", "-99999999999999999999999999999999999999"},
          {"0", "0"},
          {"1", "1"}}},
        {"c_real",
         "real",
         number,
         {{"0.1", "0.1"},
          {"'NaN'", "null"},
          {"3.4028235e38", "3.4028235e+38"},
          {"'-Infinity'", "null"}}},
        {"c_double",
         "double precision",
         number,
         {{"0.1", "0.1"},
          {"1e-7", "1e-07"},
          {"1.7976931348623157e308", "1.7976931348623157e+308"},
          {"'Infinity'", "null"}}},
        {"c_bool",
         "boolean",
         R"({"type":["boolean","null"]})",
         {{"true", "true"}, {"false", "false"}, {"true", "true"}, {"false", "false"}}},
        {"c_text",
         "text",
         string,
         {{R"(E'h\u00e9llo \U0001F600 "quoted" \\ back')", R"("héllo 😀 \"quoted\" \\ back")"},
          {"''", R"("")"},
          {"'x'", R"("x")"},
          {"'😀'", R"("😀")"}}},
        {"c_varchar",
         "varchar(20)",
         string,
         {{"''", R"("")"}, {"'x'", R"("x")"}, {"'y'", R"("y")"}, {"'z'", R"("z")"}}},
        // char(n) keeps its padding (sdk/value-kinds.md).
        {"c_char",
         "char(5)",
         string,
         {{"'ab'", R"("ab   ")"},
          {"'abcde'", R"("abcde")"},
          {"'z'", R"("z    ")"},
          {"'zz'", R"("zz   ")"}}},
        {"c_name",
         "name",
         string,
         {{"'Name'", R"("Name")"}, {"''", R"("")"}, {"'n'", R"("n")"}, {"'nn'", R"("nn")"}}},
        {"c_citext",
         "citext",
         string,
         {{"'MiXeD'", R"("MiXeD")"}, {"''", R"("")"}, {"'c'", R"("c")"}, {"'cc'", R"("cc")"}}},
        // U+0085, U+2028 and U+2029, in text and inside a JSON document: escaped.
        {"c_text_breaks",
         "text",
         string,
         {{"E'a\\u2028b'", R"("a\u2028b")"},
          {"E'\\u2029'", R"("\u2029")"},
          {"E'x\\u0085y'", R"("x\u0085y")"},
          {"'z'", R"("z")"}}},
        {"c_json_breaks",
         "jsonb",
         "{}",
         {{R"('{"k": "a\u2028b"}')", R"({"k":"a\u2028b"})"},
          {"'[]'", "[]"},
          {R"('["\u0085"]')", R"(["\u0085"])"},
          {"'1'", "1"}}},
        {"c_date",
         "date",
         R"({"type":["string","null"],"format":"date"})",
         {{"'2024-02-29'", R"("2024-02-29")"},
          {"'infinity'", "null"},
          {"'0044-03-15 BC'", "null"},
          {"'9999-12-31'", R"("9999-12-31")"}}},
        {"c_ts",
         "timestamp(6)",
         R"({"type":["string","null"],"format":"date-time"})",
         {{"'2024-02-29 13:14:15.123456'", R"("2024-02-29T13:14:15.123456+00:00")"},
          {"'infinity'", "null"},
          {"'2000-01-01 00:00:00'", R"("2000-01-01T00:00:00.000000+00:00")"},
          {"'1999-12-31 23:59:59.999999'", R"("1999-12-31T23:59:59.999999+00:00")"}}},
        // The instant, in UTC. The third literal has no offset: the inserting session's zone
        // (the server's, America/New_York, summer time) applies.
        {"c_tstz",
         "timestamptz",
         R"({"type":["string","null"],"format":"date-time"})",
         {{"'2024-02-29 13:14:15.5+05:30'", R"("2024-02-29T07:44:15.500000+00:00")"},
          {"'-infinity'", "null"},
          {"'2024-07-01 12:00:00'", R"("2024-07-01T16:00:00.000000+00:00")"},
          {"'2024-01-01 00:00:00.000001+00'", R"("2024-01-01T00:00:00.000001+00:00")"}}},
        // TIME: six fraction digits always, timetz with its offset (the ABI's TIME form). The
        // end of a day, 24:00:00, is no RFC 3339 time: NULL, with a warning.
        {"c_time",
         "time",
         R"({"type":["string","null"]})",
         {{"'13:14:15.5'", R"("13:14:15.500000")"},
          {"'00:00:00'", R"("00:00:00.000000")"},
          {"'24:00:00'", "null"},
          {"'23:59:59.999999'", R"("23:59:59.999999")"}}},
        {"c_timetz",
         "timetz",
         R"({"type":["string","null"],"format":"time"})",
         {{"'13:14:15.5+02'", R"("13:14:15.500000+02:00")"},
          {"'23:59:59.999999-03:30'", R"("23:59:59.999999-03:30")"},
          {"'00:00:00+00'", R"("00:00:00.000000+00:00")"},
          {"'12:00:00-12'", R"("12:00:00.000000-12:00")"}}},
        {"c_timetz_edge",
         "timetz",
         R"({"type":["string","null"],"format":"time"})",
         {{"'24:00:00+00'", "null"},
          {"'00:00:00+15:59'", R"("00:00:00.000000+15:59")"},
          {"'23:59:59.999999+00'", R"("23:59:59.999999+00:00")"},
          {"'24:00:00-12'", "null"}}},
        // Years past 9999 have no RFC 3339 form: NULL, with a warning; year 1 is a date.
        {"c_date_edge",
         "date",
         R"({"type":["string","null"],"format":"date"})",
         {{"'0001-01-01'", R"("0001-01-01")"},
          {"'10000-01-01'", "null"},
          {"'5874897-12-31'", "null"},
          {"'1970-01-01'", R"("1970-01-01")"}}},
        {"c_ts_edge",
         "timestamp",
         R"({"type":["string","null"],"format":"date-time"})",
         {{"'0001-01-01 00:00:00'", R"("0001-01-01T00:00:00.000000+00:00")"},
          {"'10000-01-01 00:00:00'", "null"},
          {"'294276-12-31 23:59:59'", "null"},
          {"'9999-12-31 23:59:59.999999'", R"("9999-12-31T23:59:59.999999+00:00")"}}},
        // An offset east of UTC moves year 1's first hours before year 1 (BC).
        {"c_tstz_edge",
         "timestamptz",
         R"({"type":["string","null"],"format":"date-time"})",
         {{"'0001-01-01 00:00:00+00'", R"("0001-01-01T00:00:00.000000+00:00")"},
          {"'10000-01-01 00:00:00+00'", "null"},
          {"'0001-01-01 00:00:00+05'", "null"},
          {"'9999-12-31 23:59:59.999999+00'", R"("9999-12-31T23:59:59.999999+00:00")"}}},
        {"c_json",
         "json",
         "{}",
         {{R"('{"a": [1, 2.50, {"b": null}], "c": "x"}')", R"({"a":[1,2.50,{"b":null}],"c":"x"})"},
          {"'[]'", "[]"},
          {"'null'", "null"},
          {R"('{"big": 18446744073709551616}')", R"({"big":18446744073709551616})"}}},
        // json keeps the document as written, line breaks included; the message stays one line.
        {"c_json_lines",
         "json",
         "{}",
         {{R"(E'{\n  "a": [1,\r\n 2.50],\n\t"b": "x\\ny"\n}')", R"({"a":[1,2.50],"b":"x\ny"})"},
          {R"(E'\n[]\n')", "[]"},
          {R"(E'"\\r\\n"\r')", R"("\r\n")"},
          {R"(E'{"k":\r"v"}')", R"({"k":"v"})"}}},
        {"c_json_arr",
         "json[]",
         R"({"type":["array","null"],"items":{}})",
         {{R"(ARRAY[E'{\n"a": 1}'::json, NULL])", R"([{"a":1},null])"},
          {"'{}'", "[]"},
          {R"(ARRAY[E'[\n2.50\n]'::json])", "[[2.50]]"},
          {R"(ARRAY['null'::json])", "[null]"}}},
        {"c_jsonb",
         "jsonb",
         "{}",
         {{R"('{"b": {"c": [1, 2.50]}, "a": true}')", R"({"a":true,"b":{"c":[1,2.50]}})"},
          {R"('"str"')", R"("str")"},
          {R"('{"k": "\u00e9 \ud83d\ude00"}')", R"({"k":"é 😀"})"},
          {"'[]'", "[]"}}},
        {"c_uuid",
         "uuid",
         R"({"type":["string","null"],"format":"uuid"})",
         {{"'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'", R"("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")"},
          {"'00000000-0000-0000-0000-000000000000'", R"("00000000-0000-0000-0000-000000000000")"},
          {"'ffffffff-ffff-ffff-ffff-ffffffffffff'", R"("ffffffff-ffff-ffff-ffff-ffffffffffff")"},
          {"'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'", R"("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")"}}},
        // Bytes as lowercase hex, as the schema's contentEncoding says (dialect_abi.h: BYTES).
        {"c_bytea",
         "bytea",
         R"({"type":["string","null"],"contentEncoding":"base16"})",
         {{R"('\x00ff10')", R"("00ff10")"},
          {"''", R"("")"},
          {R"('\xDEADBEEF')", R"("deadbeef")"},
          {R"('\x')", R"("")"}}},
        {"c_int_arr",
         "integer[]",
         R"({"type":["array","null"],"items":{"type":["integer","null"]}})",
         {{"'{1,NULL,3}'", "[1,null,3]"},
          {"'{}'", "[]"},
          {"'{2147483647,-2147483648}'", "[2147483647,-2147483648]"},
          {"'{-1}'", "[-1]"}}},
        // PostgreSQL keeps arrays of any dimensions in any array column; the schema's are the
        // declared ones, and an array of others is NULL, with a warning (json[] aside: its
        // items may be anything).
        {"c_text_arr",
         "text[][]",
         R"({"type":["array","null"],"items":{"type":["array","null"],"items":{"type":["string","null"]}}})",
         {{R"(E'{{a,NULL},{"b\\"c",""}}')", R"([["a",null],["b\"c",""]])"},
          {"'{}'", "[]"},
          {R"('{"{}",NULL}')", "null"},
          {R"('{{"\\","😀"}}')", R"([["\\","😀"]])"}}},
        // array_to_json writes NaN as a string, which the element schema allows
        // (plugins/postgres/types.cpp).
        {"c_num_arr",
         "numeric(6,2)[]",
         R"({"type":["array","null"],"items":{"type":["number","string","null"]}})",
         {{"'{1.5,NULL,-0.01}'", "[1.50,null,-0.01]"},
          {"'{NaN}'", R"(["NaN"])"},
          {"'{}'", "[]"},
          {"'{1.5,2.25}'", "[1.50,2.25]"}}},
        {"c_interval",
         "interval",
         string,
         {{"'1 day 02:03:04.5'", R"("1 day 02:03:04.5")"},
          {"'-1 years -2 mons +3 days -04:05:06'", R"("-1 years -2 mons +3 days -04:05:06")"},
          {"'0'", R"("00:00:00")"},
          {"'-00:00:00.000001'", R"("-00:00:00.000001")"}}},
        {"c_inet",
         "inet",
         string,
         {{"'192.168.0.1/24'", R"("192.168.0.1/24")"},
          {"'::1'", R"("::1")"},
          {"'0.0.0.0'", R"("0.0.0.0")"},
          {"'255.255.255.255'", R"("255.255.255.255")"}}},
        {"c_cidr",
         "cidr",
         string,
         {{"'10.0.0.0/8'", R"("10.0.0.0/8")"},
          {"'::/0'", R"("::/0")"},
          {"'0.0.0.0/0'", R"("0.0.0.0/0")"},
          {"'10.1.0.0/16'", R"("10.1.0.0/16")"}}},
        // The server's text form under its lc_monetary (C.UTF-8 on the test server).
        {"c_money",
         "money",
         string,
         {{"12.5", R"("$12.50")"},
          {"-1.5", R"("-$1.50")"},
          {"0", R"("$0.00")"},
          {"-92233720368547758.08", R"("-$92,233,720,368,547,758.08")"}}},
        {"c_enum",
         "type_matrix_mood",
         string,
         {{"'happy'", R"("happy")"},
          {"'sad'", R"("sad")"},
          {"'happy'", R"("happy")"},
          {"'sad'", R"("sad")"}}},
        // A domain over a domain is read as its base type, numeric(10,2).
        {"c_domain",
         "type_matrix_money2",
         R"({"type":["number","null"],"multipleOf":0.01})",
         {{"12.3", "12.30"}, {"-0.01", "-0.01"}, {"0", "0.00"}, {"99999999.99", "99999999.99"}}},
    };
    matrix.rowSessions.assign(valuedRows(matrix), "");
    matrix.columnsSentAsNull = {"c_num",       "c_real",    "c_double",    "c_date",
                                "c_ts",        "c_tstz",    "c_time",      "c_timetz_edge",
                                "c_date_edge", "c_ts_edge", "c_tstz_edge", "c_text_arr"};
    return matrix;
}

TypeMatrix mysqlMatrix() {
    TypeMatrix matrix;
    const char* integer = R"({"type":["integer","null"]})";
    const char* boolean = R"({"type":["boolean","null"]})";
    const char* number = R"({"type":["number","null"]})";
    const char* string = R"({"type":["string","null"]})";
    const char* bytes = R"({"type":["string","null"],"contentEncoding":"base16"})";
    const char* dateTime = R"({"type":["string","null"],"format":"date-time"})";
    // A TIME is a duration: a string without format time, which no value beyond a day could
    // satisfy.
    const char* duration = string;
    matrix.columns = {
        // TINYINT(1) is MySQL's BOOLEAN: any non-zero value is true.
        {"c_bool", "TINYINT(1)", boolean, {{"1", "true"}, {"0", "false"}, {"2", "true"}}},
        {"c_tinyint", "TINYINT", integer, {{"-128", "-128"}, {"127", "127"}, {"0", "0"}}},
        {"c_tinyint_u", "TINYINT UNSIGNED", integer, {{"255", "255"}, {"0", "0"}, {"1", "1"}}},
        {"c_smallint", "SMALLINT", integer, {{"-32768", "-32768"}, {"32767", "32767"}, {"0", "0"}}},
        {"c_mediumint",
         "MEDIUMINT",
         integer,
         {{"8388607", "8388607"}, {"-8388608", "-8388608"}, {"0", "0"}}},
        {"c_int",
         "INT",
         integer,
         {{"-2147483648", "-2147483648"}, {"2147483647", "2147483647"}, {"0", "0"}}},
        {"c_int_u",
         "INT UNSIGNED",
         integer,
         {{"4294967295", "4294967295"}, {"0", "0"}, {"1", "1"}}},
        {"c_bigint",
         "BIGINT",
         integer,
         {{"-9223372036854775808", "-9223372036854775808"},
          {"9223372036854775807", "9223372036854775807"},
          {"0", "0"}}},
        {"c_bigint_u",
         "BIGINT UNSIGNED",
         integer,
         {{"18446744073709551615", "18446744073709551615"},
          {"9223372036854775807", "9223372036854775807"},
          {"0", "0"}}},
        {"c_dec124",
         "DECIMAL(12,4)",
         R"({"type":["number","null"],"multipleOf":0.0001})",
         {{"1.5", "1.5000"}, {"-0.0001", "-0.0001"}, {"99999999.9999", "99999999.9999"}}},
        {"c_dec122",
         "DECIMAL(12,2)",
         R"({"type":["number","null"],"multipleOf":0.01})",
         {{"1234567890.12", "1234567890.12"}, {"-0.1", "-0.10"}, {"0", "0.00"}}},
        // Past 28 digits no multipleOf: Python's default decimal context cannot check it.
        {"c_dec3810",
         "DECIMAL(38,10)",
         R"({"type":["number","null"]})",
         {{"1234567890123456789012345678.0123456789", "1234567890123456789012345678.0123456789"},
          {"-9999999999999999999999999999.9999999999", "-9999999999999999999999999999.9999999999"},
          {"0.0000000001", "0.0000000001"}}},
        {"c_dec300",
         "DECIMAL(30,0)",
         R"({"type":["number","null"]})",
         {{"123456789012345678901234567890", "123456789012345678901234567890"},
          {"-999999999999999999999999999999", "-999999999999999999999999999999"},
          {"0", "0"}}},
        {"c_float",
         "FLOAT",
         number,
         {{"0.1", "0.1"}, {"-3.4028235e38", "-3.4028235e+38"}, {"1.5", "1.5"}}},
        {"c_double",
         "DOUBLE",
         number,
         {{"0.1", "0.1"},
          {"1e-7", "1e-07"},
          {"1.7976931348623157e308", "1.7976931348623157e+308"}}},
        {"c_bit1", "BIT(1)", boolean, {{"b'1'", "true"}, {"b'0'", "false"}, {"b'1'", "true"}}},
        {"c_bit8",
         "BIT(8)",
         integer,
         {{"b'10000001'", "129"}, {"b'0'", "0"}, {"b'11111111'", "255"}}},
        {"c_bit64",
         "BIT(64)",
         integer,
         {{"b'1111111111111111111111111111111111111111111111111111111111111111'",
           "18446744073709551615"},
          {"b'0'", "0"},
          {"b'1000000000000000000000000000000000000000000000000000000000000001'",
           "9223372036854775809"}}},
        {"c_year", "YEAR", integer, {{"2024", "2024"}, {"1901", "1901"}, {"2155", "2155"}}},
        {"c_char",
         "CHAR(5)",
         string,
         {{"'ab'", R"("ab")"}, {"'abcde'", R"("abcde")"}, {"' a'", R"(" a")"}}},
        {"c_varchar",
         "VARCHAR(50)",
         string,
         {{R"('héllo 😀 "q" \\ end')", R"("héllo 😀 \"q\" \\ end")"},
          {"''", R"("")"},
          {"' '", R"(" ")"}}},
        {"c_tinytext", "TINYTEXT", string, {{"''", R"("")"}, {"'t'", R"("t")"}, {"' '", R"(" ")"}}},
        // U+0085, U+2028 and U+2029, in text and inside a JSON document: escaped.
        {"c_text_breaks",
         "TEXT",
         string,
         {{"CONCAT('a', CHAR(0xE280A8 USING utf8mb4), 'b')", R"("a\u2028b")"},
          {"CHAR(0xE280A9 USING utf8mb4)", R"("\u2029")"},
          {"CONCAT('x', CHAR(0xC285 USING utf8mb4), 'y')", R"("x\u0085y")"}}},
        {"c_json_breaks",
         "JSON",
         "{}",
         {{R"(CONCAT('["', CHAR(0xE280A8 USING utf8mb4), '"]'))", R"(["\u2028"])"},
          {"'[]'", "[]"},
          {"'1'", "1"}}},
        {"c_text", "TEXT", string, {{"'x'", R"("x")"}, {"''", R"("")"}, {"'😀'", R"("😀")"}}},
        {"c_mediumtext",
         "MEDIUMTEXT",
         string,
         {{"'😀😀'", R"("😀😀")"}, {"''", R"("")"}, {"' '", R"(" ")"}}},
        {"c_longtext",
         "LONGTEXT",
         string,
         {{"'long'", R"("long")"},
          {"''", R"("")"},
          {R"('tab\tand "quote"')", R"("tab\tand \"quote\"")"}}},
        {"c_enum",
         "ENUM('small','Large')",
         string,
         {{"'Large'", R"("Large")"}, {"'small'", R"("small")"}, {"'Large'", R"("Large")"}}},
        {"c_set",
         "SET('a','b','c')",
         string,
         {{"'a,c'", R"("a,c")"}, {"''", R"("")"}, {"'c,b,a'", R"("a,b,c")"}}},
        // MariaDB's JSON is LONGTEXT with CHECK (json_valid(...)); both spellings are JSON.
        {"c_json",
         "JSON",
         "{}",
         {{R"('{"a": [1, 2.50, null], "b": "😀"}')", R"({"a":[1,2.50,null],"b":"😀"})"},
          {"'null'", "null"},
          {"'{}'", "{}"}}},
        {"c_json_lines",
         "JSON",
         "{}",
         {{R"('{\n  "a": [1,\r\n 2.50],\n\t"b": "x\\ny"\n}')", R"({"a":[1,2.50],"b":"x\ny"})"},
          {R"('\n[]\n')", "[]"},
          {R"('{"k":\r"v"}')", R"({"k":"v"})"}}},
        {"c_json_chk",
         "LONGTEXT CHECK (json_valid(c_json_chk))",
         "{}",
         {{R"('[1, {"x": "y"}]')", R"([1,{"x":"y"}])"},
          {R"('"str"')", R"("str")"},
          {"'[18446744073709551616]'", "[18446744073709551616]"}}},
        // Zero dates are no day at all: NULL, without a warning.
        {"c_date",
         "DATE",
         R"({"type":["string","null"],"format":"date"})",
         {{"'2024-02-29'", R"("2024-02-29")"},
          {"'1000-01-01'", R"("1000-01-01")"},
          {"'0000-00-00'", "null"}}},
        {"c_dt6",
         "DATETIME(6)",
         dateTime,
         {{"'2024-02-29 13:14:15.123456'", R"("2024-02-29T13:14:15.123456+00:00")"},
          {"'9999-12-31 23:59:59.999999'", R"("9999-12-31T23:59:59.999999+00:00")"},
          {"'0000-00-00 00:00:00'", "null"}}},
        // Year 1 and year 9999 are RFC 3339 dates, and MariaDB stores them (year 0 too).
        {"c_date_edge",
         "DATE",
         R"({"type":["string","null"],"format":"date"})",
         {{"'0001-01-01'", R"("0001-01-01")"},
          {"'9999-12-31'", R"("9999-12-31")"},
          {"'0000-01-01'", R"("0000-01-01")"}}},
        {"c_dt_edge",
         "DATETIME(6)",
         dateTime,
         {{"'0001-01-01 00:00:00'", R"("0001-01-01T00:00:00.000000+00:00")"},
          {"'9999-12-31 23:59:59.999999'", R"("9999-12-31T23:59:59.999999+00:00")"},
          {"'1000-01-01 00:00:00'", R"("1000-01-01T00:00:00.000000+00:00")"}}},
        {"c_dt0",
         "DATETIME",
         dateTime,
         {{"'1999-12-31 23:59:59'", R"("1999-12-31T23:59:59.000000+00:00")"},
          {"'2000-01-01 00:00:00'", R"("2000-01-01T00:00:00.000000+00:00")"},
          {"'0000-00-00 00:00:00'", "null"}}},
        // The instant, in UTC: row 1 is written by a session at +05:30, row 2 by one in the
        // server's zone (-05:00).
        {"c_ts6",
         "TIMESTAMP(6) NULL DEFAULT NULL",
         dateTime,
         {{"'2024-02-29 13:14:15.654321'", R"("2024-02-29T07:44:15.654321+00:00")"},
          {"'2000-01-01 00:00:00'", R"("2000-01-01T05:00:00.000000+00:00")"},
          {"'0000-00-00 00:00:00'", "null"}}},
        // TIME is a duration up to ±838 hours; six fraction digits always (the ABI's TIME form).
        {"c_time6",
         "TIME(6)",
         duration,
         {{"'838:59:59.000000'", R"("838:59:59.000000")"},
          {"'-838:59:59.000000'", R"("-838:59:59.000000")"},
          {"'-00:00:00.000001'", R"("-00:00:00.000001")"}}},
        {"c_time0",
         "TIME",
         duration,
         {{"'-838:59:59'", R"("-838:59:59.000000")"},
          {"'00:00:00'", R"("00:00:00.000000")"},
          {"'12:30:45'", R"("12:30:45.000000")"}}},
        // Bytes as lowercase hex, as the schema's contentEncoding says; BINARY(n) pads with 00.
        {"c_binary",
         "BINARY(4)",
         bytes,
         {{"X'00FF10'", R"("00ff1000")"},
          {"X'00000000'", R"("00000000")"},
          {"X'FFFFFFFF'", R"("ffffffff")"}}},
        {"c_varbinary",
         "VARBINARY(10)",
         bytes,
         {{"X'DEADBEEF'", R"("deadbeef")"}, {"X''", R"("")"}, {"X'00'", R"("00")"}}},
        {"c_blob",
         "BLOB",
         bytes,
         {{"X'00'", R"("00")"}, {"X''", R"("")"}, {"X'0102'", R"("0102")"}}},
        {"c_longblob",
         "LONGBLOB",
         bytes,
         {{"X''", R"("")"}, {"X'00FF'", R"("00ff")"}, {"X'FF'", R"("ff")"}}},
        // MariaDB's UUID and INET6 are read as their text; a UUID says so in its format.
        {"c_uuid",
         "UUID",
         R"({"type":["string","null"],"format":"uuid"})",
         {{"'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'", R"("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")"},
          {"'00000000-0000-0000-0000-000000000000'", R"("00000000-0000-0000-0000-000000000000")"},
          {"NULL", "null"}}},
        {"c_inet6",
         "INET6",
         string,
         {{"'2001:db8::ff00:42:8329'", R"("2001:db8::ff00:42:8329")"},
          {"'::'", R"("::")"},
          {"'::ffff:1.2.3.4'", R"("::ffff:1.2.3.4")"}}},
    };
    // sql_mode '' admits the zero dates; the zones show the tap does not depend on the writer's.
    matrix.rowSessions = {"SET SESSION sql_mode = '', SESSION time_zone = '+05:30';\n",
                          "SET SESSION sql_mode = '';\n", "SET SESSION sql_mode = '';\n"};
    // The zero dates: sent as NULL, each column reported once.
    matrix.columnsSentAsNull = {"c_date", "c_dt0", "c_dt6", "c_ts6"};
    return matrix;
}

}  // namespace

TEST_CASE("postgres: every type of the matrix arrives exact, schema and value") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    everyTypeArrivesExact(db, postgresMatrix());
}

TEST_CASE("mysql: every type of the matrix arrives exact, schema and value") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    everyTypeArrivesExact(db, mysqlMatrix());
}

TEST_CASE("exact JSON reading keeps number text and refuses what is not JSON") {
    CHECK(canonicalJson(R"( {"b": [1.50, 18446744073709551615], "a": "\u00e9\ud83d\ude00"} )") ==
          R"({"a":"é😀","b":[1.50,18446744073709551615]})");
    CHECK(canonicalJson("1.5") != canonicalJson("1.50"));
    CHECK(canonicalJson(R"("a\/b\n")") == R"("a/b\u000a")");
    for (const char* bad :
         {"{\"a\":\"x\ny\"}", "NaN", "[1,]", "01", "1.", "{\"a\" 1}", "[1] 2", "\"\\ud800\""}) {
        INFO(bad);
        CHECK_THROWS_AS(ExactJson::parse(bad), std::invalid_argument);
    }
}

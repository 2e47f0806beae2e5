// Every type each plugin maps as a key, journalled by the shipped triggers, alone and beside an
// integer in a composite key: inserts, updates, key changes and deletes replayed in two
// incremental runs (the second from the first's STATE), in a chunked snapshot and in a
// following run. The replica a target builds from each equals the table (read by a snapshot,
// which needs no journalled key, and counted by the database), every RECORD is valid under its
// SCHEMA, and a tombstone's key removes the row its record wrote. Also: a key its column
// cannot hold stops that stream alone, and a key type no key can have stops at start-up.
#include <doctest/doctest.h>

#include <chrono>
#include <map>
#include <thread>

#include "dialect_fixture.hpp"
#include "support/exact_json.hpp"
#include "support/schema_validator.hpp"

using namespace tapdiffgen::testing;

namespace {

struct KeyType {
    std::string sqlType;
    std::vector<std::string> values;  // SQL literals, distinct keys; at least two
};

struct KeyMatrix {
    std::string setupSql;  // types the columns use (a PostgreSQL enum)
    std::vector<KeyType> types;
};

KeyMatrix postgresKeys(const std::string& prefix) {
    const std::string mood = prefix + "_mood";
    return {
        "DROP TYPE IF EXISTS " + mood + " CASCADE; CREATE TYPE " + mood +
            " AS ENUM ('sad', 'ok', 'happy')",
        {
            {"smallint", {"-32768", "0", "32767"}},
            {"integer", {"-2147483648", "7", "2147483647"}},
            {"bigint", {"-9223372036854775808", "0", "9223372036854775807"}},
            {"numeric(12,3)", {"-1.500", "0.001", "-0.250"}},
            {"numeric", {"-2.5", "10", "0.000100"}},
            {"text", {"'A-7'", "'x y'", "'Zé'"}},
            {"varchar(10)", {"'a'", "'B'", "'c d'"}},
            {"char(4)", {"'ab'", "'abcd'", "'x'"}},
            {"uuid",
             {"'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'", "'00000000-0000-0000-0000-000000000000'",
              "'ffffffff-ffff-ffff-ffff-ffffffffffff'"}},
            {"bytea", {"'\\x00ff'", "'\\xff00'", "'\\x0102'"}},
            {"date", {"'2024-02-29'", "'0001-01-01'", "'9999-12-31'"}},
            {"time", {"'00:00:00'", "'10:00:00.0001'", "'23:59:59.999999'"}},
            {"timestamp(0)",
             {"'2024-01-01 10:00:00'", "'1999-12-31 23:59:59'", "'2000-01-01 00:00:00'"}},
            {"timestamp(3)",
             {"'2024-01-01 10:00:00.123'", "'2024-01-01 10:00:00.1'", "'2024-01-01 10:00:00'"}},
            {"timestamp(6)",
             {"'2024-01-01 10:00:00.000100'", "'2024-01-01 10:00:00.123456'",
              "'2024-01-01 10:00:00'"}},
            {"timestamptz",
             {"'2024-01-01 10:00:00.5+02'", "'2024-01-01 00:00:00+00'",
              "'2024-06-30 23:59:59.999999-07'"}},
            {"boolean", {"true", "false"}},
            {mood, {"'sad'", "'ok'", "'happy'"}},
            {"inet", {"'10.0.0.1'", "'192.168.0.0/24'", "'::1'"}},
        }};
}

KeyMatrix mysqlKeys() {
    const std::string ci = " CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci";
    return {"",
            {
                {"TINYINT", {"-128", "0", "127"}},
                {"TINYINT UNSIGNED", {"0", "1", "255"}},
                {"SMALLINT", {"-32768", "5", "32767"}},
                {"SMALLINT UNSIGNED", {"0", "65535", "7"}},
                {"MEDIUMINT", {"-8388608", "0", "8388607"}},
                {"MEDIUMINT UNSIGNED", {"0", "16777215", "3"}},
                {"INT", {"-2147483648", "0", "2147483647"}},
                {"INT UNSIGNED", {"0", "4294967295", "9"}},
                {"BIGINT", {"-9223372036854775808", "0", "9223372036854775807"}},
                {"BIGINT UNSIGNED", {"0", "18446744073709551615", "42"}},
                {"DECIMAL(12,3)", {"-1.500", "0.001", "-0.250"}},
                {"CHAR(5)" + ci, {"'abc'", "'XyZ'", "'q r'"}},
                {"VARCHAR(10)" + ci, {"'A-7'", "'b'", "'Zé'"}},
                {"BINARY(3)", {"X'00ff00'", "X'ff0000'", "X'000000'"}},
                {"VARBINARY(8)", {"X'00'", "X'ff'", "X'00ff10'"}},
                {"DATE", {"'2024-02-29'", "'1000-01-01'", "'9999-12-31'"}},
                {"DATETIME", {"'2024-01-01 10:00:00'", "'1999-12-31 23:59:59'", "'2000-01-01'"}},
                {"DATETIME(3)",
                 {"'2024-01-01 10:00:00.123'", "'2024-01-01 10:00:00.1'", "'2024-01-01 10:00:00'"}},
                {"DATETIME(6)",
                 {"'2024-01-01 10:00:00.000100'", "'2024-01-01 10:00:00.123456'",
                  "'2024-01-01 10:00:00.999999'"}},
                {"TIMESTAMP(6)",
                 {"'2024-01-01 10:00:00.000100'", "'2038-01-01 00:00:00.999999'",
                  "'1970-01-01 00:00:01'"}},
                {"TIME", {"'-838:59:59'", "'00:00:00'", "'838:59:59'"}},
                {"TIME(6)", {"'10:00:00.000100'", "'-00:00:01.5'", "'23:59:59.999999'"}},
                {"ENUM('sad','ok','happy')", {"'sad'", "'ok'", "'happy'"}},
                {"BIT(8)", {"b'0'", "b'10101010'", "b'11111111'"}},
                {"BIT(1)", {"b'0'", "b'1'"}},
                {"BOOLEAN", {"true", "false"}},
            }};
}

// One table per type and key shape: s<i> keyed by k alone, c<i> by (k, n).
struct KeyTable {
    std::string name;
    const KeyType* type;
    bool composite;
};

std::vector<KeyTable> createTables(JournalledSchema& schema, const KeyMatrix& matrix) {
    if (!matrix.setupSql.empty()) schema.exec(matrix.setupSql);
    std::vector<KeyTable> tables;
    for (size_t i = 0; i < matrix.types.size(); ++i) {
        const KeyType& type = matrix.types[i];
        const std::string single = "s" + std::to_string(i);
        schema.createTable(single, "k " + type.sqlType + " NOT NULL, v INTEGER, PRIMARY KEY (k)",
                           "k");
        tables.push_back({schema.table(single), &type, false});
        const std::string composite = "c" + std::to_string(i);
        schema.createTable(
            composite,
            "k " + type.sqlType + " NOT NULL, n INTEGER NOT NULL, v INTEGER, PRIMARY KEY (k, n)",
            "k,n");
        tables.push_back({schema.table(composite), &type, true});
    }
    return tables;
}

void insertKey(const JournalledSchema& schema, const KeyTable& table, const std::string& key,
               int v) {
    const std::string value = std::to_string(v);
    schema.exec("INSERT INTO " + table.name + " VALUES " +
                (table.composite
                     ? "(" + key + ", 1, " + value + "), (" + key + ", 2, " + value + ")"
                     : "(" + key + ", " + value + ")"));
}

// Every value inserted.
void firstChanges(const JournalledSchema& schema, const std::vector<KeyTable>& tables) {
    for (const KeyTable& table : tables) {
        for (size_t i = 0; i < table.type->values.size(); ++i) {
            insertKey(schema, table, table.type->values[i], static_cast<int>(i));
        }
    }
}

// An update, a delete, and (with three values) a key change onto the deleted key.
void secondChanges(const JournalledSchema& schema, const std::vector<KeyTable>& tables) {
    for (const KeyTable& table : tables) {
        const auto& values = table.type->values;
        schema.exec("UPDATE " + table.name + " SET v = v + 10 WHERE k = " + values[0]);
        schema.exec("DELETE FROM " + table.name + " WHERE k = " + values.back());
        if (values.size() > 2) {
            schema.exec("UPDATE " + table.name + " SET k = " + values.back() +
                        " WHERE k = " + values[1]);
        }
    }
}

// A delete and an insert of the same key, and a key changed back.
void thirdChanges(const JournalledSchema& schema, const std::vector<KeyTable>& tables) {
    for (const KeyTable& table : tables) {
        const auto& values = table.type->values;
        schema.exec("DELETE FROM " + table.name + " WHERE k = " + values[0]);
        insertKey(schema, table, values[0], 100);
        if (values.size() > 2) {
            schema.exec("UPDATE " + table.name + " SET k = " + values[1] +
                        " WHERE k = " + values.back());
        }
    }
}

std::string configOf(const JournalledSchema& schema, const ScratchDir& dir,
                     const std::vector<KeyTable>& tables, const std::string& startFrom,
                     const std::string& extra, const std::string& file) {
    std::string list;
    for (const KeyTable& table : tables) {
        list += std::string(list.empty() ? "" : ",") + R"({"table_name":")" + table.name +
                R"(","pk_column":)" + (table.composite ? R"(["k","n"])" : R"("k")") +
                R"(,"start_from":")" + startFrom + R"("})";
    }
    return dir.write(file, schema.env().configPrefix() + R"(,"diffgen_table":")" +
                               schema.diffgenTable() + R"(","tables":[)" + list + "]," + extra +
                               "}");
}

// stream → key (canonical JSON of the key members) → the record's columns.
using Replica = std::map<std::string, std::map<std::string, std::string>>;

// A key as a target compares it: a number by its value (an unscaled numeric's row keeps its
// own scale, 0.000100, where its tombstone has the value's digits, 0.0001), the rest as text.
std::string keyValue(const ExactJson& value) {
    std::string text = value.canonical();
    if (value.type() != ExactJson::Type::Number || text.find('.') == std::string::npos) {
        return text;
    }
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
    return text;
}

// Applies a run's records as a target would (upsert, delete on is_deleted), checks each
// against its SCHEMA, and returns the last STATE (or `state` when none came).
std::string apply(const TapRun& run, Replica& replica, std::string state) {
    for (const std::string& problem : outputViolations(run.lines)) FAIL_CHECK(problem);
    for (const std::string& line : run.lines) {
        const ExactJson message = ExactJson::parse(line);
        const std::string& type = message.at("type").scalar();
        if (type == "STATE") state = message.at("value").canonical();
        if (type != "RECORD") continue;
        const ExactJson& record = message.at("record");
        std::string key = keyValue(record.at("k"));
        std::string row = key + " v=" + record.at("v").canonical();
        for (const auto& [name, value] : record.members()) {
            if (name == "n") key += " n=" + value.canonical();
        }
        auto& rows = replica[message.at("stream").scalar()];
        if (record.at("is_deleted").scalar() == "true") {
            CHECK_MESSAGE(rows.erase(key) == 1, "tombstone of a key no record wrote: " << line);
        } else {
            rows[key] = row;
        }
    }
    return state;
}

// The tables as they are: a chunked snapshot (two rows a chunk), and the database's counts.
void checkEqualsTables(const JournalledSchema& schema, const std::vector<KeyTable>& tables,
                       const Replica& replica, const std::string& when) {
    ScratchDir dir;
    const std::string config =
        configOf(schema, dir, tables, "snapshot",
                 R"("page_size":2,"max_page_size":2,"max_run_seconds":60)", "s.json");
    TapRun snapshot = runTapBinary({"--config", config});
    REQUIRE_MESSAGE(snapshot.exitCode == 0, snapshot.stderrText);
    Replica fromSnapshot;
    apply(snapshot, fromSnapshot, "");
    for (const KeyTable& table : tables) {
        INFO(when << ": " << table.name << " (" << table.type->sqlType
                  << (table.composite ? ", composite" : "") << ")");
        const auto count = queryColumn(schema.env(), "SELECT COUNT(*) FROM " + table.name);
        const auto& rows = fromSnapshot[table.name];
        CHECK(std::to_string(rows.size()) == *count.at(0));
        const auto found = replica.find(table.name);
        CHECK((found == replica.end() ? std::map<std::string, std::string>{} : found->second) ==
              rows);
    }
}

void keyMatrix(const DatabaseEnv& env, const KeyMatrix& matrix, const std::string& prefix) {
    JournalledSchema schema(env, prefix);
    const std::vector<KeyTable> tables = createTables(schema, matrix);
    ScratchDir dir;
    const std::string incremental = configOf(schema, dir, tables, "beginning",
                                             R"("page_size":50,"max_page_size":50)", "i.json");

    firstChanges(schema, tables);
    Replica replica;
    TapRun first = runTapBinary({"--config", incremental});
    REQUIRE_MESSAGE(first.exitCode == 0, first.stderrText);
    std::string state = apply(first, replica, "");
    checkEqualsTables(schema, tables, replica, "first run");

    secondChanges(schema, tables);
    TapRun second = runTapBinary(argsWithState(incremental, dir, state));
    REQUIRE_MESSAGE(second.exitCode == 0, second.stderrText);
    state = apply(second, replica, state);
    checkEqualsTables(schema, tables, replica, "second run, from the first's STATE");

    const std::string following =
        configOf(schema, dir, tables, "beginning",
                 R"("follow":true,"poll_interval_seconds":0.2,"idle_exit_seconds":3)", "f.json");
    TapProcess follow(argsWithState(following, dir, state));
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    thirdChanges(schema, tables);
    TapRun followed = follow.wait();
    REQUIRE_MESSAGE(followed.exitCode == 0, followed.stderrText);
    apply(followed, replica, state);
    checkEqualsTables(schema, tables, replica, "following run");
}

// A key the journal holds that its column cannot hold (four decimals for numeric(12,3)): only
// its stream stops, with one line naming it; the other stream reads on, the final STATE keeps
// the stopped stream's bookmark before the bad event, and the run exits non-zero.
void badKeyStopsItsStream(const DatabaseEnv& env, const std::string& prefix,
                          const std::string& decimalType) {
    JournalledSchema schema(env, prefix);
    schema.createTable("prices", "code " + decimalType + " NOT NULL PRIMARY KEY, v INTEGER",
                       "code");
    schema.createTable("other", "id INTEGER NOT NULL PRIMARY KEY, v INTEGER", "id");
    const std::string prices = schema.table("prices");
    const std::string other = schema.table("other");
    schema.exec("INSERT INTO " + prices + " VALUES (-1.5, 1)");
    schema.exec("INSERT INTO " + other + " VALUES (1, 1)");
    schema.exec("INSERT INTO " + schema.diffgenTable() + " (tablename, table_id, op) VALUES ('" +
                prices + "', '12.3456', 'u')");
    schema.exec("INSERT INTO " + prices + " VALUES (2.25, 2)");
    schema.exec("INSERT INTO " + other + " VALUES (2, 2)");
    const auto badId =
        queryColumn(env, "SELECT id FROM " + schema.diffgenTable() + " WHERE table_id = '12.3456'");
    const int64_t bad = std::stoll(*badId.at(0));

    ScratchDir dir;
    TapRun run = runTapBinary({"--config", schema.writeConfig(dir, {prices, other})});
    CHECK(run.exitCode == 1);
    const std::string message = "stream '" + prices + "': diffgen id " + std::to_string(bad) +
                                " journals key '12.3456' for column 'code' (" + decimalType +
                                "), which that column cannot hold";
    const auto errors = run.errorMessages();
    REQUIRE_FALSE(errors.empty());
    CHECK(errors.back() ==
          message + " (set on_bad_event to 'skip' to skip such rows with a warning)");
    CHECK(run.records(other).size() == 2);
    CHECK(run.records(prices).size() == 1);
    for (const auto& record : run.records(prices))
        CHECK_FALSE(record->getValue<bool>("is_deleted"));
    CHECK(run.lastBookmark(prices) == bad - 1);
    CHECK(run.lastBookmark(other) > bad);

    TapRun skipping = runTapBinary(
        {"--config", schema.writeConfig(dir, {prices, other}, R"("on_bad_event":"skip")")});
    CHECK_MESSAGE(skipping.exitCode == 0, skipping.stderrText);
    CHECK(skipping.stderrText.find(message + "; skipped because on_bad_event is 'skip'") !=
          std::string::npos);
    CHECK(skipping.records(prices).size() == 2);
}

// A key of a type no key can have is refused before any output.
void refusedKeyType(const DatabaseEnv& env, const std::string& prefix, const std::string& type) {
    JournalledSchema schema(env, prefix);
    schema.createTable("refused", "k " + type + " NOT NULL PRIMARY KEY, v INTEGER", "k");
    const std::string refused = schema.table("refused");
    ScratchDir dir;
    TapRun run = runTapBinary({"--config", schema.writeConfig(dir, {refused})});
    CHECK(run.exitCode == 1);
    CHECK(run.lines.empty());
    const auto errors = run.errorMessages();
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].find("table '" + refused + "': key column 'k'") == 0);
    CHECK(errors[0].find("which cannot be a key") != std::string::npos);
}

}  // namespace

TEST_CASE("postgres: every key type, alone and composite, incremental, snapshot and follow") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    keyMatrix(db, postgresKeys("key_matrix"), "key_matrix");
}

TEST_CASE("mysql: every key type, alone and composite, incremental, snapshot and follow") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    keyMatrix(db, mysqlKeys(), "key_matrix");
}

TEST_CASE("postgres: a key its column cannot hold stops only its stream") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    badKeyStopsItsStream(db, "key_bad", "numeric(12,3)");
}

TEST_CASE("mysql: a key its column cannot hold stops only its stream") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    badKeyStopsItsStream(db, "key_bad", "decimal(12,3)");
}

TEST_CASE("postgres: a key of a type no key can have stops at start-up") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    refusedKeyType(db, "key_refused", "double precision");
}

TEST_CASE("mysql: a key of a type no key can have stops at start-up") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    refusedKeyType(db, "key_refused", "FLOAT");
}

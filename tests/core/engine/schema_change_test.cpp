// A table that changes while the run goes on (docs/schema-changes.md): a new SCHEMA before the
// first record under it, every record valid under the SCHEMA before it, whether the change is
// seen before a page's rows are read or during the read; the key must survive; a catalog's
// deselection holds for the new columns.
#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

#include "engine/fake_database.hpp"
#include "support/schema_validator.hpp"

using tapdiffgen::testing::FakeSetup;
using tapdiffgen::testing::numberedDatabase;
using tapdiffgen::testing::NumberedRows;
using tapdiffgen::testing::numberedTablesSetting;
using tapdiffgen::testing::outputViolations;
using tapdiffgen::testing::runTap;
using tapdiffgen::testing::TapRun;

namespace {

// Table t: id key, a integer; rows 1..3. Events 1..6 update rows 1, 2, 3, 1, 2, 3: pages of
// two events are pages 1 to 3, the fourth page empty.
const char* kTableT = R"("t":{"columns":[{"name":"id","kind":"int64","pk":true},
    {"name":"a","kind":"int64"}],"rows":[[1,10],[2,20],[3,30]]})";
const char* kEventsOfT = R"("diffgen":[[1,"t","1","u","2024-01-01T00:00:01+00:00"],
    [2,"t","2","u","2024-01-01T00:00:02+00:00"],[3,"t","3","u","2024-01-01T00:00:03+00:00"],
    [4,"t","1","u","2024-01-01T00:00:04+00:00"],[5,"t","2","u","2024-01-01T00:00:05+00:00"],
    [6,"t","3","u","2024-01-01T00:00:06+00:00"]])";
const char* kSettingsOfT =
    R"("tables":[{"table_name":"t","pk_column":"id"}],"page_size":2,"max_page_size":2,)"
    R"("read_ahead":false)";

// The database with `alterations` ({"at_page": N, "tables": {...}}, ...).
std::string alteredDatabase(const std::string& alterations) {
    return std::string("{\"tables\":{") + kTableT + "}," + kEventsOfT + ",\"alter\":[" +
           alterations + "]}";
}

std::string tableT(const std::string& columns, const std::string& rows) {
    return R"("t":{"columns":[)" + columns + R"(],"rows":[)" + rows + "]}";
}

const char* kIdColumn = R"({"name":"id","kind":"int64","pk":true})";

// Table t (id, a) gains column b (text) before the second page is read.
std::string columnBAddedAtPage2() {
    return alteredDatabase(R"({"at_page":2,"tables":{)" +
                           tableT(std::string(kIdColumn) +
                                      R"(,{"name":"a","kind":"int64"},{"name":"b","kind":"text"})",
                                  R"([1,10,"x1"],[2,20,"x2"],[3,30,"x3"])") +
                           "}}");
}

// The columns of each SCHEMA, in name order, the metadata columns aside.
std::vector<std::string> schemaColumnsOf(const TapRun& run) {
    std::vector<std::string> columns;
    for (const auto& schema : run.messages("SCHEMA")) {
        std::string names;
        for (const auto& name : schema->getObject("schema")->getObject("properties")->getNames()) {
            if (name == "is_deleted" || name.rfind("_sdc_", 0) == 0) continue;
            names += (names.empty() ? "" : ",") + name;
        }
        columns.push_back(names);
    }
    return columns;
}

void checkEveryRecordValid(const TapRun& run) {
    for (const std::string& problem : outputViolations(run.lines)) FAIL_CHECK(problem);
}

// Each line's type and, for a record, its id: the order the output must keep.
std::vector<std::string> messageOutline(const TapRun& run) {
    std::vector<std::string> kinds;
    for (const std::string& line : run.lines) {
        if (line.find(R"("type":"SCHEMA")") != std::string::npos) kinds.push_back("SCHEMA");
        if (line.find(R"("type":"RECORD")") != std::string::npos) kinds.push_back("RECORD");
    }
    return kinds;
}

}  // namespace

TEST_CASE("schema change: a column added before a page brings a new SCHEMA before its records") {
    FakeSetup setup(columnBAddedAtPage2(), kSettingsOfT);
    TapRun run = runTap({"--config", setup.configPath()});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(schemaColumnsOf(run) == std::vector<std::string>{"a,id", "a,b,id"});
    CHECK(messageOutline(run) == std::vector<std::string>{"SCHEMA", "RECORD", "RECORD", "SCHEMA",
                                                          "RECORD", "RECORD", "RECORD", "RECORD"});
    const auto records = run.records("t");
    REQUIRE(records.size() == 6);
    CHECK_FALSE(records[1]->has("b"));
    // Page 2: rows 3 and 1, read under the new SCHEMA.
    CHECK(records[2]->getValue<std::string>("b") == "x" + records[2]->get("id").toString());
    CHECK(records[3]->getValue<std::string>("b") == "x" + records[3]->get("id").toString());
    CHECK(run.stderrText.find("stream 't': table 't' changed (column 'b' added); a new SCHEMA "
                              "follows") != std::string::npos);
    checkEveryRecordValid(run);
}

TEST_CASE("schema change: a table that does not change writes one SCHEMA") {
    FakeSetup setup(alteredDatabase(""), kSettingsOfT);
    TapRun run = runTap({"--config", setup.configPath()});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(run.messages("SCHEMA").size() == 1);
    CHECK(run.records("t").size() == 6);
    CHECK(run.stderrText.find("changed (") == std::string::npos);
}

// Describes: 1 at start-up, then one a page; after the third (page 2's) the column goes, so the
// page's read finds it gone (TDG_TABLE_CHANGED).
TEST_CASE("schema change: a column dropped between a page's description and its read") {
    FakeSetup setup(alteredDatabase(R"({"after_describe":3,"tables":{)" +
                                    tableT(kIdColumn, "[1],[2],[3]") + "}}"),
                    kSettingsOfT);
    TapRun run = runTap({"--config", setup.configPath()});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(schemaColumnsOf(run) == std::vector<std::string>{"a,id", "id"});
    const auto records = run.records("t");
    REQUIRE(records.size() == 6);
    CHECK(records[1]->has("a"));
    CHECK_FALSE(records[2]->has("a"));
    CHECK(run.stderrText.find("column 'a' dropped") != std::string::npos);
    CHECK(run.lastBookmark("t") == 6);
    checkEveryRecordValid(run);
}

// The read sends the column's new kind, as a plugin that does not check would: the row does
// not fit its SCHEMA and is never written so.
TEST_CASE("schema change: a column retyped between a page's description and its read") {
    FakeSetup setup(
        alteredDatabase(R"({"after_describe":3,"tables":{)" +
                        tableT(std::string(kIdColumn) + R"(,{"name":"a","kind":"text"})",
                               R"([1,"x10"],[2,"x20"],[3,"x30"])") +
                        "}}"),
        kSettingsOfT);
    TapRun run = runTap({"--config", setup.configPath()});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    const auto schemas = run.messages("SCHEMA");
    REQUIRE(schemas.size() == 2);
    const auto properties = schemas[1]->getObject("schema")->getObject("properties");
    CHECK(properties->getObject("a")->getArray("type")->getElement<std::string>(0) == "string");
    const auto records = run.records("t");
    REQUIRE(records.size() == 6);
    CHECK(records[2]->getValue<std::string>("a") == "x" + records[2]->get("id").toString() + "0");
    checkEveryRecordValid(run);
}

TEST_CASE("schema change: a dropped key column stops the run naming table and column") {
    FakeSetup setup(
        alteredDatabase(R"({"at_page":2,"tables":{)" +
                        tableT(R"({"name":"a","kind":"int64"})", "[10],[20],[30]") + "}}"),
        kSettingsOfT);
    TapRun run = runTap({"--config", setup.configPath()});
    CHECK(run.exitCode != 0);
    CHECK(run.stderrText.find("table 't': key column 'id' no longer exists (dropped or renamed "
                              "while the tap ran; its columns now: a); set pk_column to its key "
                              "and run again") != std::string::npos);
    CHECK(run.lastBookmark("t") == 2);
    CHECK(run.records("t").size() == 2);
}

TEST_CASE("schema change: a column the catalog deselects stays out, a new one comes in") {
    FakeSetup setup(columnBAddedAtPage2(), kSettingsOfT);
    const std::string catalog = setup.write(
        "catalog.json",
        R"({"streams":[{"tap_stream_id":"t","metadata":[{"breadcrumb":[],"metadata":{"selected":true}},)"
        R"({"breadcrumb":["properties","a"],"metadata":{"selected":false}}]}]})");
    TapRun run = runTap({"--config", setup.configPath(), "--catalog", catalog});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(schemaColumnsOf(run) == std::vector<std::string>{"id", "b,id"});
    for (const auto& record : run.records("t")) CHECK_FALSE(record->has("a"));
    checkEveryRecordValid(run);
}

// MariaDB drops and creates a table in two statements: the run waits for it.
TEST_CASE("schema change: a table missing for a moment is waited for") {
    FakeSetup setup(
        alteredDatabase(
            R"({"at_page":2,"tables":{"t":null}},{"after_describe":3,"tables":{)" +
            tableT(std::string(kIdColumn) + R"(,{"name":"a","kind":"int64"})", "[1,11],[3,33]") +
            "}}"),
        kSettingsOfT);
    TapRun run = runTap({"--config", setup.configPath()});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(run.stderrText.find("table 't' does not exist; waiting up to 10 s for it to be created "
                              "again") != std::string::npos);
    CHECK(run.messages("SCHEMA").size() == 1);
    std::map<int64_t, bool> deleted;
    for (const auto& record : run.records("t")) {
        deleted[record->getValue<int64_t>("id")] = record->getValue<bool>("is_deleted");
    }
    CHECK(deleted == std::map<int64_t, bool>{{1, false}, {2, true}, {3, false}});
}

TEST_CASE("schema change: a stream map that no longer compiles stops the run with its error") {
    FakeSetup setup(
        alteredDatabase(R"({"at_page":2,"tables":{)" + tableT(kIdColumn, "[1],[2],[3]") + "}}"),
        std::string(kSettingsOfT) + R"(,"stream_maps":{"t":{"twice":"a * 2"}})");
    TapRun run = runTap({"--config", setup.configPath()});
    CHECK(run.exitCode != 0);
    CHECK(run.stderrText.find("stream_maps: stream 't', property 'twice', expression 'a * 2'") !=
          std::string::npos);
    CHECK(run.lastBookmark("t") == 2);
}

TEST_CASE("schema change: each output of a stream's maps gets its new SCHEMA") {
    FakeSetup setup(columnBAddedAtPage2(),
                    std::string(kSettingsOfT) +
                        R"json(,"stream_maps":{"t":{"__alias__":"u","twice":"int(a * 2)"},)json"
                        R"("v":{"__source__":"t","__else__":null}})");
    TapRun run = runTap({"--config", setup.configPath()});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    std::vector<std::string> schemas;
    for (const auto& schema : run.messages("SCHEMA")) {
        const auto properties = schema->getObject("schema")->getObject("properties");
        schemas.push_back(schema->getValue<std::string>("stream") +
                          (properties->has("b") ? "+b" : ""));
    }
    // v keeps only the key: its SCHEMA does not change, and is not written again.
    CHECK(schemas == std::vector<std::string>{"u", "v", "u+b"});
    CHECK(run.records("u").size() == 6);
    CHECK(run.records("u").back()->has("b"));
    CHECK(run.records("u").back()->getValue<int>("twice") ==
          2 * run.records("u").back()->getValue<int>("a"));
    checkEveryRecordValid(run);
}

TEST_CASE("schema change: a change seen by another re-pull session costs it nothing") {
    // 3 tables of 900 rows and 6,000 events in pages of 3,000: pages shared between two
    // sessions. After the third describe (page 2's), t1 loses column v.
    const std::string alteration =
        R"(,"alter":[{"after_describe":3,"tables":{"t1":{"columns":[{"name":"id","kind":"int64","pk":true}],"rows":[)";
    std::string rows;
    for (int id = 1; id <= 900; ++id) rows += (id > 1 ? ",[" : "[") + std::to_string(id) + "]";
    std::string events =
        numberedDatabase(3, 6000, NumberedRows{900, 100}, alteration + rows + "]}}}]");
    // Times a target can read: the numbered events' own "ts" is no date-time.
    for (size_t at = events.find(R"("ts"])"); at != std::string::npos;
         at = events.find(R"("ts"])", at)) {
        events.replace(at, 4, R"("2024-01-01T00:00:00+00:00")");
    }
    FakeSetup setup(events, numberedTablesSetting(3) +
                                R"(,"page_size":3000,"max_page_size":3000,"read_ahead":false,)"
                                R"("repull_sessions":2,"log_level":"debug")");
    TapRun run = runTap({"--config", setup.configPath()});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(run.stderrText.find("failed (") == std::string::npos);
    CHECK(run.stderrText.find("column 'v' dropped") != std::string::npos);
    CHECK(run.stderrText.find("0 taken back") != std::string::npos);
    checkEveryRecordValid(run);
}

// The snapshot's first chunk asks for column a, which went after the start-up description: the
// chunk is read again from its first key with the table's columns of now.
TEST_CASE("schema change: a snapshot chunk whose table changed is read again under a new SCHEMA") {
    FakeSetup setup(alteredDatabase(R"({"after_describe":1,"tables":{)" +
                                    tableT(kIdColumn, "[1],[2],[3]") + "}}"),
                    R"("tables":[{"table_name":"t","pk_column":"id","start_from":"snapshot"}],)"
                    R"("page_size":2,"read_ahead":false)");
    TapRun run = runTap({"--config", setup.configPath()});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(schemaColumnsOf(run) == std::vector<std::string>{"a,id", "id"});
    const auto records = run.records("t");
    REQUIRE(records.size() == 3);
    for (const auto& record : records) CHECK_FALSE(record->has("a"));
    CHECK(run.stderrText.find("the snapshot reads its chunk again with the table's new columns") !=
          std::string::npos);
    CHECK(run.lastBookmark("t") == 6);
    checkEveryRecordValid(run);
}

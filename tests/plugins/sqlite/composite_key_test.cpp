// A table keyed by two columns, journalled by the triggers packaging/diffgen/sqlite.sql writes
// (json_array of the key), replayed by the real tap: changes, tombstones, a key that changes,
// a snapshot start, and a run resumed from the first one's state.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "sqlite_cli.hpp"
#include "support/sqlite_journal.hpp"
#include "support/tap_process.hpp"

using namespace tapdiffgen::testing;

namespace {

// The journal of packaging/diffgen/sqlite.sql and order_lines, keyed by two columns, journalled
// by the triggers its view diffgen_triggers writes.
void createSchema(const std::string& database, const ScratchDir& work) {
    REQUIRE(applySql(database, TDG_SOURCE_DIR "/packaging/diffgen/sqlite.sql", work.path()) == 0);
    REQUIRE(applySql(database,
                     work.write("lines.sql",
                                "CREATE TABLE order_lines (order_id INTEGER NOT NULL, line_no "
                                "TEXT NOT NULL, qty INTEGER, PRIMARY KEY (order_id, line_no));"),
                     work.path()) == 0);
    journalSqliteTable(database, "order_lines");
}

// "<order_id>/<line_no>+qty" for a live row, "<order_id>/<line_no>-" for a tombstone, sorted.
std::vector<std::string> changesOf(const TapRun& run) {
    std::vector<std::string> changes;
    for (const auto& record : run.records("order_lines")) {
        std::string key =
            record->get("order_id").toString() + "/" + record->getValue<std::string>("line_no");
        changes.push_back(record->getValue<bool>("is_deleted")
                              ? key + "-"
                              : key + "+" + record->get("qty").toString());
    }
    std::sort(changes.begin(), changes.end());
    return changes;
}

}  // namespace

TEST_CASE("sqlite: a composite key replays, resumes and snapshots by both columns") {
    ScratchDir work;
    const std::string database = work.path() + "/lines.db";
    auto sql = [&](const std::string& text) {
        REQUIRE(applySql(database, work.write("change.sql", text), work.path()) == 0);
    };
    createSchema(database, work);
    sql("INSERT INTO order_lines VALUES (1, 'a', 10), (1, 'b', 11), (2, 'a', 20);"
        "UPDATE order_lines SET qty = 12 WHERE order_id = 1 AND line_no = 'b';"
        "DELETE FROM order_lines WHERE order_id = 2;");
    const std::string config =
        work.write("config.json", R"({"sql_dialect":"sqlite","database":")" + database +
                                      R"(","tables":[{"table_name":"order_lines",)"
                                      R"("pk_column":["order_id","line_no"]}]})");

    TapRun first = runTapBinary({"--config", config});
    REQUIRE_MESSAGE(first.exitCode == 0, first.stderrText);
    CHECK(changesOf(first) == std::vector<std::string>{"1/a+10", "1/b+12", "2/a-"});
    CHECK(first.lines[0].find(R"("key_properties":["order_id","line_no"])") != std::string::npos);

    sql("UPDATE order_lines SET line_no = 'c' WHERE order_id = 1 AND line_no = 'a';");
    TapRun second =
        runTapBinary({"--config", config, "--state", work.write("state.json", first.lastState())});
    REQUIRE_MESSAGE(second.exitCode == 0, second.stderrText);
    CHECK(changesOf(second) == std::vector<std::string>{"1/a-", "1/c+10"});

    const std::string snapshot = work.write(
        "snapshot.json", R"({"sql_dialect":"sqlite","database":")" + database +
                             R"(","tables":[{"table_name":"order_lines",)"
                             R"("pk_column":["order_id","line_no"],"start_from":"snapshot"}]})");
    TapRun fromSnapshot = runTapBinary({"--config", snapshot});
    REQUIRE_MESSAGE(fromSnapshot.exitCode == 0, fromSnapshot.stderrText);
    CHECK(changesOf(fromSnapshot) == std::vector<std::string>{"1/b+12", "1/c+10"});
}

TEST_CASE("sqlite: a table_id of the wrong arity is a bad event naming the diffgen id") {
    ScratchDir work;
    const std::string database = work.path() + "/lines.db";
    createSchema(database, work);
    REQUIRE(applySql(database,
                     work.write("bad.sql",
                                "INSERT INTO order_lines VALUES (1, 'a', 10);"
                                "INSERT INTO diffgen (tablename, table_id, op) "
                                "VALUES ('order_lines', '[1]', 'u'), ('order_lines', 'x', 'u');"),
                     work.path()) == 0);
    std::string base =
        R"({"sql_dialect":"sqlite","database":")" + database +
        R"(","tables":[{"table_name":"order_lines","pk_column":["order_id","line_no"]}])";
    TapRun failing = runTapBinary({"--config", work.write("fail.json", base + "}")});
    CHECK(failing.exitCode == 1);
    CHECK(failing.stderrText.find("stream 'order_lines': diffgen id 2 journals key '[1]', which "
                                  "has 1 values, the key has 2 columns") != std::string::npos);

    TapRun skipping =
        runTapBinary({"--config", work.write("skip.json", base + R"(,"on_bad_event":"skip"})")});
    REQUIRE_MESSAGE(skipping.exitCode == 0, skipping.stderrText);
    CHECK(skipping.stderrText.find("stream 'order_lines': diffgen id 3 journals key 'x', which is "
                                   "not a JSON array; skipped because on_bad_event is 'skip'") !=
          std::string::npos);
    CHECK(changesOf(skipping) == std::vector<std::string>{"1/a+10"});
}

// Snapshots in chunks through the real loader, ABI and engine, against the fake plugin: the
// position in the STATE, a run resumed from it, a connection lost mid-chunk, a plugin without
// chunks, the other streams' pages between the chunks, and a snapshot asked for in the log.
#include <doctest/doctest.h>

#include <set>
#include <sstream>

#include "engine/fake_database.hpp"

using tapdiffgen::testing::FakeSetup;
using tapdiffgen::testing::kOneSession;
using tapdiffgen::testing::numberedDatabase;
using tapdiffgen::testing::NumberedRows;
using tapdiffgen::testing::runTap;
using tapdiffgen::testing::TapRun;

namespace {

constexpr int kRows = 50;

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// t0 (and t1 when `tables` is 2) with ids 1..kRows; t0 snapshots, t1 replays from the start.
std::string snapshotTables(int tables) {
    std::string json = R"("tables":[{"table_name":"t0","pk_column":"id","start_from":"snapshot"})";
    if (tables == 2) json += R"(,{"table_name":"t1","pk_column":"id"})";
    return json + "]";
}

std::vector<int64_t> ids(const TapRun& run, const std::string& stream) {
    std::vector<int64_t> found;
    for (const auto& record : run.records(stream)) found.push_back(record->getValue<int64_t>("id"));
    return found;
}

// The snapshot members of every STATE, as written.
std::vector<std::string> snapshotPositions(const TapRun& run, const std::string& stream) {
    std::vector<std::string> positions;
    for (const auto& state : run.messages("STATE")) {
        auto bookmark = state->getObject("value")->getObject("bookmarks")->getObject(stream);
        if (bookmark && bookmark->has("snapshot")) {
            std::ostringstream text;
            bookmark->getObject("snapshot")->stringify(text);
            positions.push_back(text.str());
        }
    }
    return positions;
}

}  // namespace

TEST_CASE("a snapshot reads its table in chunks and keeps its position in the STATE") {
    FakeSetup setup(numberedDatabase(1, 4, NumberedRows{kRows, 0}),
                    snapshotTables(1) + R"(,"page_size":20)");
    TapRun run = runTap({"--config", setup.configPath()});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(ids(run, "t0").size() == static_cast<size_t>(kRows));
    // Chunks of 20 rows after a first of at most 256: 20, 40, then the last of 10.
    CHECK(snapshotPositions(run, "t0") ==
          std::vector<std::string>{R"({"after_key":["20"],"rows":20,"since_diffgen_id":4})",
                                   R"({"after_key":["40"],"rows":40,"since_diffgen_id":4})"});
    CHECK(run.lastState() ==
          R"({"bookmarks":{"t0":{"replication_key":"diffgen_id","replication_key_value":4}}})");
    CHECK(has(run.stderrText, "snapshot of 't0' done: 50 rows"));
    CHECK(has(run.stderrText, R"(METRIC: {"type":"counter","metric":"record_count","value":50,)"
                              R"("tags":{"stream":"t0"}})"));
}

TEST_CASE("a run resumes a snapshot after the last key its STATE kept") {
    FakeSetup setup(numberedDatabase(1, 5, NumberedRows{kRows, 0}, R"(,"estimated_rows":50)"),
                    snapshotTables(1) + R"(,"page_size":20)");
    const std::string state = setup.write(
        "state.json", R"({"bookmarks":{"t0":{"replication_key":"diffgen_id",)"
                      R"("replication_key_value":5,"note":"kept",)"
                      R"("snapshot":{"since_diffgen_id":5,"after_key":["30"],"rows":30}}}})");
    TapRun run = runTap({"--config", setup.configPath(), "--state", state});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    std::vector<int64_t> expected;
    for (int64_t id = 31; id <= kRows; ++id) expected.push_back(id);
    CHECK(ids(run, "t0") == expected);
    CHECK(has(run.stderrText,
              R"(stream 't0': the snapshot of table 't0' resumes after key ["30"] (30 rows )"
              R"(done), its changes replayed after diffgen id 5)"));
    CHECK(has(run.stderrText, "snapshot of 't0' done: 50 rows, 20 of them in this run"));
    // Another tool's member of the bookmark survives.
    CHECK(run.lastState() == R"({"bookmarks":{"t0":{"note":"kept","replication_key":"diffgen_id",)"
                             R"("replication_key_value":5}}})");
}

TEST_CASE("a connection lost mid-chunk resumes the snapshot from the last whole chunk") {
    // The third chunk's first row is written, then the connection fails.
    FakeSetup setup(
        numberedDatabase(1, 4, NumberedRows{kRows, 0}, R"(,"lose_connection_at_chunk":3)"),
        snapshotTables(1) + kOneSession + R"(,"page_size":10,"reconnect_max_wait_seconds":1)");
    TapRun run = runTap({"--config", setup.configPath()});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(has(run.stderrText, "connection lost: server closed the connection unexpectedly"));
    CHECK(has(run.stderrText, R"(resumes after key ["20"] (20 rows done))"));
    const std::vector<int64_t> emitted = ids(run, "t0");
    CHECK(std::set<int64_t>(emitted.begin(), emitted.end()).size() == static_cast<size_t>(kRows));
    // Row 21, written before the loss, is the one written twice.
    CHECK(emitted.size() == static_cast<size_t>(kRows) + 1);
    CHECK(snapshotPositions(run, "t0").back() ==
          R"({"after_key":["50"],"rows":50,"since_diffgen_id":4})");
}

TEST_CASE("a plugin without chunks snapshots with one scan") {
    FakeSetup setup(numberedDatabase(1, 4, NumberedRows{kRows, 0}, R"(,"chunked_scan":false)"),
                    snapshotTables(1) + R"(,"page_size":10)");
    TapRun run = runTap({"--config", setup.configPath()});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(ids(run, "t0").size() == static_cast<size_t>(kRows));
    CHECK(has(run.stderrText,
              "the fake plugin cannot read a table in chunks (scan_chunk, ABI revision 5)"));
    CHECK(snapshotPositions(run, "t0").empty());
    CHECK(run.lastBookmark("t0") == 4);
}

TEST_CASE("the other streams' pages come between a snapshot's chunks") {
    // 40 events alternate between t0 and t1; t1 replays them 4 at a time while t0 is read 5
    // rows at a time.
    FakeSetup setup(numberedDatabase(2, 40, NumberedRows{kRows, 0}),
                    snapshotTables(2) + kOneSession + R"(,"page_size":4,"max_page_size":4)");
    TapRun run = runTap({"--config", setup.configPath()});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    size_t firstReplayed = 0;
    size_t lastSnapshotted = 0;
    for (size_t i = 0; i < run.lines.size(); ++i) {
        if (has(run.lines[i], R"("stream":"t1")") && firstReplayed == 0) firstReplayed = i;
        if (has(run.lines[i], R"("type":"RECORD","stream":"t0")")) lastSnapshotted = i;
    }
    CHECK(firstReplayed > 0);
    CHECK(firstReplayed < lastSnapshotted);
    CHECK(ids(run, "t0").size() == static_cast<size_t>(kRows));
    CHECK(run.lastBookmark("t1") == 40);
}

TEST_CASE("a signal in the log snapshots one table again while the others replay") {
    // Both streams stand at id 2; id 5 asks for a snapshot of t0.
    const std::string database =
        R"({"tables":{"t0":{"columns":[{"name":"id","kind":"int64","pk":true},)"
        R"({"name":"v","kind":"text"}],"rows":[[1,"a"],[2,"b"],[3,"c"],[4,"d"],[5,"e"]]},)"
        R"("t1":{"columns":[{"name":"id","kind":"int64","pk":true},{"name":"v","kind":"text"}],)"
        R"("rows":[[1,"x"],[2,"y"]]}},"diffgen":[[1,"t0","1","u","t"],[2,"t1","1","u","t"],)"
        R"([3,"t1","2","u","t"],[4,"t0","2","u","t"],[5,"tap-diffgen:snapshot","t0","i","t"],)"
        R"([6,"tap-diffgen:snapshot","elsewhere","i","t"],[7,"t1","1","u","t"]]})";
    FakeSetup setup(database, R"("tables":[{"table_name":"t0","pk_column":"id"},)"
                              R"({"table_name":"t1","pk_column":"id"}],"page_size":2)");
    const std::string state =
        setup.write("state.json", R"({"bookmarks":{"t0":{"replication_key_value":2},)"
                                  R"("t1":{"replication_key_value":2}}})");
    TapRun run = runTap({"--config", setup.configPath(), "--state", state});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(has(run.stderrText,
              "stream 't0': diffgen id 5 asks for a snapshot; the table is read again "
              "while its changes replay"));
    // Event 4's row, then every row of the table.
    CHECK(ids(run, "t0") == std::vector<int64_t>{2, 1, 2, 3, 4, 5});
    CHECK(ids(run, "t1") == std::vector<int64_t>{2, 1});
    CHECK(run.lastBookmark("t0") == 7);
    CHECK(run.lastBookmark("t1") == 7);
    CHECK(snapshotPositions(run, "t0").empty() == false);
    CHECK(!has(run.lastState(), "snapshot"));
}

// One diffgen scan for every stream: catch-up of a lagging stream, and query counts that do
// not grow with the number of tables.
#include <doctest/doctest.h>

#include "engine/fake_database.hpp"

using tapdiffgen::testing::FakeSetup;
using tapdiffgen::testing::runTap;

namespace {

// n tables t0..t(n-1), each with rows 1..3; events spread over them round-robin.
std::string databaseWithTables(int tables, int events) {
    std::string json = R"({"tables":{)";
    for (int t = 0; t < tables; ++t) {
        if (t > 0) json += ",";
        json +=
            "\"t" + std::to_string(t) +
            R"(":{"columns":[{"name":"id","kind":"int64","pk":true},{"name":"v","kind":"text"}],)"
            R"("rows":[[1,"a"],[2,"b"],[3,"c"]]})";
    }
    json += R"(},"diffgen":[)";
    for (int e = 1; e <= events; ++e) {
        if (e > 1) json += ",";
        json += "[" + std::to_string(e) + ",\"t" + std::to_string(e % tables) + "\",\"" +
                std::to_string(e % 3 + 1) + "\",\"u\",\"ts\"]";
    }
    return json + "]}";
}

std::string tablesSetting(int tables) {
    std::string json = R"("tables":[)";
    for (int t = 0; t < tables; ++t) {
        if (t > 0) json += ",";
        json += R"({"table_name":"t)" + std::to_string(t) + R"(","pk_column":"id"})";
    }
    return json + "]";
}

// A loss at the Nth page read hits the page the test means only when the run reads every page
// itself (read_ahead_test.cpp has the loss of a second session).
const char* kOneSession = R"(,"read_ahead":false)";

// The number written just before `name` in the tap's summary line ("9 diffgen queries").
long counter(const std::string& stderrText, const std::string& name) {
    size_t at = stderrText.find(" " + name);
    REQUIRE(at != std::string::npos);
    size_t start = stderrText.find_last_not_of("0123456789", at - 1) + 1;
    return std::stol(stderrText.substr(start, at - start));
}

}  // namespace

TEST_CASE("diffgen queries do not grow with the number of tables") {
    FakeSetup four(databaseWithTables(4, 64), tablesSetting(4) + R"(,"page_size":8)");
    FakeSetup sixteen(databaseWithTables(16, 64), tablesSetting(16) + R"(,"page_size":8)");
    auto runFour = runTap({"--config", four.configPath()});
    auto runSixteen = runTap({"--config", sixteen.configPath()});
    REQUIRE(runFour.exitCode == 0);
    REQUIRE(runSixteen.exitCode == 0);
    CHECK(counter(runFour.stderrText, "diffgen queries") ==
          counter(runSixteen.stderrText, "diffgen queries"));
    CHECK(counter(runFour.stderrText, "diffgen queries") == 9);  // 8 full pages + the empty one
    // Re-pulls: at most one query per table per page.
    CHECK(counter(runFour.stderrText, "re-pull queries") <= 8 * 4);
}

TEST_CASE("a lagging stream catches up on its own tables, then joins the shared scan") {
    FakeSetup setup(databaseWithTables(2, 20), tablesSetting(2) + R"(,"page_size":4)");
    std::string state =
        setup.write("state.json", R"({"bookmarks":{"t0":{"replication_key_value":20}}})");
    auto run = runTap({"--config", setup.configPath(), "--state", state});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    // t1 had events 1,3,...,19 (ten), deduplicated per page of its own; t0 had nothing new.
    CHECK(run.records("t0").empty());
    CHECK_FALSE(run.records("t1").empty());
    CHECK(run.lastState().find(
              R"("t1":{"replication_key":"diffgen_id","replication_key_value":20})") !=
          std::string::npos);
    // The catch-up read only t1's events: 10 events, pages of 4 → 3 pages, plus one shared
    // page at the head.
    CHECK(counter(run.stderrText, "diffgen queries") == 4);
}

TEST_CASE("--test emits one record per stream and no STATE") {
    FakeSetup setup(databaseWithTables(2, 10), tablesSetting(2));
    auto run = runTap({"--config", setup.configPath(), "--test"});
    REQUIRE(run.exitCode == 0);
    CHECK(run.records("t0").size() == 1);
    CHECK(run.records("t1").size() == 1);
    CHECK(run.messages("STATE").empty());
    auto schemaOnly = runTap({"--config", setup.configPath(), "--test=schema"});
    CHECK(schemaOnly.messages("SCHEMA").size() == 2);
    CHECK(schemaOnly.messages("RECORD").empty());
}

TEST_CASE("snapshot start emits the table, then replays after the head") {
    FakeSetup setup(databaseWithTables(1, 5),
                    R"("tables":[{"table_name":"t0","pk_column":"id","start_from":"snapshot"}])");
    auto run = runTap({"--config", setup.configPath()});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(run.records("t0").size() == 3);
    CHECK(run.lastState().find(R"("replication_key_value":5)") != std::string::npos);
}

TEST_CASE("max_run_seconds stops at a page boundary without jumping to the head") {
    std::string slow = databaseWithTables(1, 40);
    slow.insert(slow.size() - 1, R"(,"page_delay_ms":300)");
    FakeSetup setup(slow, tablesSetting(1) + R"(,"page_size":4,"max_run_seconds":1)");
    auto run = runTap({"--config", setup.configPath()});
    REQUIRE(run.exitCode == 0);
    auto states = run.messages("STATE");
    REQUIRE_FALSE(states.empty());
    int64_t bookmark = states.back()
                           ->getObject("value")
                           ->getObject("bookmarks")
                           ->getObject("t0")
                           ->getValue<int64_t>("replication_key_value");
    CHECK(bookmark > 0);
    CHECK(bookmark < 40);
    CHECK(bookmark % 4 == 0);
    CHECK(run.records("t0").size() <= static_cast<size_t>(bookmark));
    CHECK(run.stderrText.find("max_run_seconds reached") != std::string::npos);
}

TEST_CASE("a lost connection is re-opened and the sync resumes from the last safe STATE") {
    std::string flaky = databaseWithTables(1, 20);
    flaky.insert(flaky.size() - 1, R"(,"lose_connection_at_page":3)");
    FakeSetup setup(
        flaky, tablesSetting(1) + kOneSession + R"(,"page_size":4,"reconnect_max_wait_seconds":1)");
    auto run = runTap({"--config", setup.configPath()});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(run.stderrText.find("connection lost: server closed the connection unexpectedly") !=
          std::string::npos);
    CHECK(run.lastState().find(R"("replication_key_value":20)") != std::string::npos);
}

TEST_CASE("when reconnecting is not allowed the run fails with its last safe STATE written") {
    std::string flaky = databaseWithTables(1, 20);
    flaky.insert(flaky.size() - 1, R"(,"lose_connection_at_page":3)");
    FakeSetup setup(flaky,
                    tablesSetting(1) + kOneSession + R"(,"page_size":4,"reconnect_attempts":0)");
    auto run = runTap({"--config", setup.configPath()});
    CHECK(run.exitCode == 1);
    CHECK(run.stderrText.find("server closed the connection unexpectedly") != std::string::npos);
    CHECK(run.lastState().find(R"("replication_key_value":8)") != std::string::npos);
}

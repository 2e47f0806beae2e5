// One diffgen scan for every stream: catch-up of a lagging stream, and query counts that do
// not grow with the number of tables.
#include <doctest/doctest.h>

#include <map>
#include <sstream>
#include <string>

#include "engine/fake_database.hpp"

using tapdiffgen::testing::FakeSetup;
using tapdiffgen::testing::kOneSession;
using tapdiffgen::testing::numberedDatabase;
using tapdiffgen::testing::numberedTablesSetting;
using tapdiffgen::testing::runTap;
using tapdiffgen::testing::TapRun;

namespace {

// The number written just before `name` in the tap's summary line ("9 diffgen queries").
long counter(const std::string& stderrText, const std::string& name) {
    size_t at = stderrText.find(" " + name);
    REQUIRE(at != std::string::npos);
    size_t start = stderrText.find_last_not_of("0123456789", at - 1) + 1;
    return std::stol(stderrText.substr(start, at - start));
}

// Each row's last record of `stream`, by key: what a target keeps.
std::map<std::string, std::string> lastRecords(const TapRun& run, const std::string& stream) {
    std::map<std::string, std::string> last;
    for (const auto& record : run.records(stream)) {
        std::ostringstream text;
        record->stringify(text);
        last[record->get("id").toString()] = text.str();
    }
    return last;
}

}  // namespace

TEST_CASE("diffgen queries do not grow with the number of tables") {
    // Pages of one size, so that the counts compare (the next test lets them grow).
    const std::string pages = R"(,"page_size":8,"max_page_size":8)";
    FakeSetup four(numberedDatabase(4, 64), numberedTablesSetting(4) + pages);
    FakeSetup sixteen(numberedDatabase(16, 64), numberedTablesSetting(16) + pages);
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

// 64 events in turn over the tables, pages of 8 until the first full one. The rest are read at
// max_page_size, three times page_size by default; with it left to the tap, a page over 16 tables
// wants 625 events of each and grows to its ceiling, four times page_size.
TEST_CASE("a backlog's pages grow to max_page_size after the first full one and keep every row") {
    const std::string debug = R"(,"log_level":"debug")";
    FakeSetup grown(numberedDatabase(16, 64),
                    numberedTablesSetting(16) + R"(,"page_size":8)" + debug);
    FakeSetup bounded(numberedDatabase(16, 64),
                      numberedTablesSetting(16) + R"(,"page_size":8,"max_page_size":16)" + debug);
    FakeSetup fixed(numberedDatabase(16, 64),
                    numberedTablesSetting(16) + R"(,"page_size":8,"max_page_size":8)" + debug);
    TapRun runGrown = runTap({"--config", grown.configPath()});
    TapRun runBounded = runTap({"--config", bounded.configPath()});
    TapRun runFixed = runTap({"--config", fixed.configPath()});
    for (const TapRun* run : {&runGrown, &runBounded, &runFixed}) {
        REQUIRE_MESSAGE(run->exitCode == 0, run->stderrText);
    }
    CHECK(counter(runGrown.stderrText, "diffgen queries") == 3);    // 8 + 32 + 24
    CHECK(counter(runBounded.stderrText, "diffgen queries") == 5);  // 8 + 16 + 16 + 16 + 8
    CHECK(counter(runFixed.stderrText, "diffgen queries") == 9);    // 8 full pages + the empty one
    const std::string grownTo32 =
        "diffgen pages of 32 events over 16 tables from now on: a full "
        "page of 8 means a backlog";
    const size_t said = runGrown.stderrText.find(grownTo32);
    CHECK(said != std::string::npos);
    CHECK(runGrown.stderrText.find(grownTo32, said + 1) == std::string::npos);
    CHECK(runBounded.stderrText.find("diffgen pages of 16 events over 16 tables") !=
          std::string::npos);
    CHECK(runFixed.stderrText.find("diffgen pages of") == std::string::npos);
    CHECK(runGrown.lastState() == runFixed.lastState());
    CHECK(runBounded.lastState() == runFixed.lastState());
    for (int t = 0; t < 16; ++t) {
        const std::string stream = "t" + std::to_string(t);
        CHECK_FALSE(lastRecords(runGrown, stream).empty());
        CHECK(lastRecords(runGrown, stream) == lastRecords(runFixed, stream));
        CHECK(lastRecords(runBounded, stream) == lastRecords(runFixed, stream));
    }
}

// page_size 400: a backlog page holds 1,200 events (three times), 625 of each table over two
// tables (1,250), and no more than 1,600 (four times) over four.
TEST_CASE("a backlog page over many tables holds 625 events of each, up to four times page_size") {
    const std::string options = R"(,"page_size":400,"log_level":"debug")";
    for (const auto& [tables, expected] :
         std::map<int, std::string>{{1, "diffgen pages of 1200 events over 1 tables"},
                                    {2, "diffgen pages of 1250 events over 2 tables"},
                                    {4, "diffgen pages of 1600 events over 4 tables"}}) {
        CAPTURE(tables);
        FakeSetup setup(numberedDatabase(tables, 2000), numberedTablesSetting(tables) + options);
        TapRun run = runTap({"--config", setup.configPath()});
        REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
        CHECK(run.stderrText.find(expected) != std::string::npos);
        // 2,000 events: the first page, one full backlog page, and what is left.
        CHECK(counter(run.stderrText, "diffgen queries") == 3);
        for (int t = 0; t < tables; ++t)
            CHECK(lastRecords(run, "t" + std::to_string(t)).size() == 3);
    }
}

TEST_CASE("a lagging stream catches up on its own tables, then joins the shared scan") {
    FakeSetup setup(numberedDatabase(2, 20),
                    numberedTablesSetting(2) + R"(,"page_size":4,"max_page_size":4)");
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
    FakeSetup setup(numberedDatabase(2, 10), numberedTablesSetting(2));
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
    FakeSetup setup(numberedDatabase(1, 5),
                    R"("tables":[{"table_name":"t0","pk_column":"id","start_from":"snapshot"}])");
    auto run = runTap({"--config", setup.configPath()});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(run.records("t0").size() == 3);
    CHECK(run.lastState().find(R"("replication_key_value":5)") != std::string::npos);
}

TEST_CASE("max_run_seconds stops at a page boundary without jumping to the head") {
    FakeSetup setup(
        numberedDatabase(1, 40, R"(,"page_delay_ms":300)"),
        numberedTablesSetting(1) + R"(,"page_size":4,"max_page_size":4,"max_run_seconds":1)");
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
    const std::string flaky = numberedDatabase(1, 20, R"(,"lose_connection_at_page":3)");
    FakeSetup setup(flaky,
                    numberedTablesSetting(1) + kOneSession +
                        R"(,"page_size":4,"max_page_size":4,"reconnect_max_wait_seconds":1)");
    auto run = runTap({"--config", setup.configPath()});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(run.stderrText.find("connection lost: server closed the connection unexpectedly") !=
          std::string::npos);
    CHECK(run.lastState().find(R"("replication_key_value":20)") != std::string::npos);
}

TEST_CASE("when reconnecting is not allowed the run fails with its last safe STATE written") {
    const std::string flaky = numberedDatabase(1, 20, R"(,"lose_connection_at_page":3)");
    FakeSetup setup(flaky, numberedTablesSetting(1) + kOneSession +
                               R"(,"page_size":4,"max_page_size":4,"reconnect_attempts":0)");
    auto run = runTap({"--config", setup.configPath()});
    CHECK(run.exitCode == 1);
    CHECK(run.stderrText.find("server closed the connection unexpectedly") != std::string::npos);
    CHECK(run.lastState().find(R"("replication_key_value":8)") != std::string::npos);
}

// The run, not each connection, owns the clock and the counters: a reconnect neither restarts
// max_run_seconds nor forgets what the attempts before it read.
#include <doctest/doctest.h>

#include <chrono>
#include <map>
#include <vector>

#include "engine/fake_database.hpp"
#include "replay/timing/backoff.hpp"
#include "replay/timing/gap_reread.hpp"
#include "replay/timing/poll_schedule.hpp"

using tapdiffgen::testing::FakeSetup;
using tapdiffgen::testing::kOneSession;
using tapdiffgen::testing::numberedDatabase;
using tapdiffgen::testing::numberedTablesSetting;
using tapdiffgen::testing::runTap;

namespace {

const std::string kOneTable = numberedTablesSetting(1);

// The number written just before `name` in the tap's summary line ("20 events").
long summaryCounter(const std::string& stderrText, const std::string& name) {
    size_t line = stderrText.find("sync done: ");
    REQUIRE(line != std::string::npos);
    size_t at = stderrText.find(" " + name, line);
    REQUIRE(at != std::string::npos);
    size_t start = stderrText.find_last_not_of("0123456789", at - 1) + 1;
    return std::stol(stderrText.substr(start, at - start));
}

// Table t0 with updates 1..12 of keys 1..12, ids 2 and 8 journalled by `late` (JSON array
// members); `extra`: more members of the file.
std::string heldTwoAndEight(const std::string& late, const std::string& extra = "") {
    std::string diffgen;
    for (int id = 1; id <= 12; ++id) {
        if (id == 2 || id == 8) continue;
        diffgen += (diffgen.empty() ? "[" : ",[") + std::to_string(id) + R"(,"t0",")" +
                   std::to_string(id) + R"(","u","ts"])";
    }
    return R"({"tables":{"t0":{"columns":[{"name":"id","kind":"int64","pk":true},)"
           R"({"name":"v","kind":"text"}],"rows":[[1,"a"]]}},"diffgen":[)" +
           diffgen + R"(],"late":[)" + late + "]" + extra + "}";
}

}  // namespace

TEST_CASE("max_run_seconds counts from the run's start, across a reconnect") {
    // Pages of 300 ms; the second read fails and the reconnect waits 1 s, so a clock restarted
    // by the reconnect would let the run go on until about 3.6 s.
    FakeSetup setup(
        numberedDatabase(1, 60, R"(,"page_delay_ms":300,"lose_connection_at_page":2)"),
        kOneTable + kOneSession +
            R"(,"page_size":4,"max_page_size":4,"max_run_seconds":2,"reconnect_max_wait_seconds":1)");
    const auto started = std::chrono::steady_clock::now();
    auto run = runTap({"--config", setup.configPath()});
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(run.stderrText.find("connection lost") != std::string::npos);
    CHECK(run.stderrText.find("(max_run_seconds reached)") != std::string::npos);
    CHECK(seconds < 3.0);
    CHECK(run.lastState().find(R"("replication_key_value":60)") == std::string::npos);
}

TEST_CASE("the summary counts every attempt of the run, not only the last") {
    FakeSetup setup(numberedDatabase(1, 20, R"(,"lose_connection_at_page":3)"),
                    kOneTable + kOneSession +
                        R"(,"page_size":4,"max_page_size":4,"reconnect_max_wait_seconds":1)");
    auto run = runTap({"--config", setup.configPath()});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    REQUIRE(run.stderrText.find("connection lost") != std::string::npos);
    // Pages 1 and 2 (8 events) before the loss, the other 12 after it.
    CHECK(summaryCounter(run.stderrText, "events") == 20);
    CHECK(summaryCounter(run.stderrText, "records") == static_cast<long>(run.records("t0").size()));
    CHECK(run.stderrText.find(R"(METRIC: {"type":"counter","metric":"record_count","value":)" +
                              std::to_string(run.records("t0").size()) +
                              R"(,"tags":{"stream":"t0"}})") != std::string::npos);
}

TEST_CASE("reconnect waits double up to their bound, and progress gives the attempts back") {
    tapdiffgen::core::Backoff backoff(4, 5);
    std::vector<int64_t> waits;
    while (auto wait = backoff.nextWait()) waits.push_back(wait->count());
    CHECK(waits == std::vector<int64_t>{1, 2, 4, 5});
    CHECK(backoff.attempt() == 4);
    backoff.reset();
    auto again = backoff.nextWait();
    REQUIRE(again);
    CHECK(again->count() == 1);
}

TEST_CASE("a following run polls soon after events and backs off to poll_interval_seconds") {
    using Seconds = tapdiffgen::core::PollSchedule::Seconds;
    tapdiffgen::core::PollSchedule poll(Seconds(1));
    CHECK(poll.nextWait() == Seconds(0.01));
    for (int i = 0; i < 20; ++i) poll.afterRead(false);
    CHECK(poll.nextWait() == Seconds(1));
    poll.afterRead(true);
    CHECK(poll.nextWait() == Seconds(0.01));
    poll.afterRead(false);
    CHECK(poll.nextWait() == Seconds(0.02));
}

TEST_CASE("a pending range is read again soon, then less often while its gap stays") {
    using tapdiffgen::core::GapReread;
    using Seconds = GapReread::Seconds;
    using std::chrono::milliseconds;
    const auto read = GapReread::Clock::now();
    GapReread reread(Seconds(1));
    CHECK_FALSE(reread.due(10, read, read + milliseconds(5)));
    CHECK(reread.due(10, read, read + milliseconds(10)));
    reread.stillGapped(read + milliseconds(10));
    CHECK(reread.nextWait() == Seconds(0.02));
    CHECK_FALSE(reread.due(10, read, read + milliseconds(25)));
    CHECK(reread.due(10, read, read + milliseconds(30)));
    auto now = read + milliseconds(30);
    for (int i = 0; i < 20; ++i) reread.stillGapped(now += milliseconds(1000));
    CHECK(reread.nextWait() == Seconds(1));
    CHECK_FALSE(reread.due(10, read, now + milliseconds(500)));
    CHECK(reread.due(10, read, now + milliseconds(1000)));
    // Another oldest range (the one before was taken) starts again from the shortest wait.
    const auto later = now + milliseconds(2000);
    CHECK_FALSE(reread.due(20, later, later));
    CHECK(reread.nextWait() == Seconds(0.01));
    CHECK(reread.due(20, later, later + milliseconds(10)));
}

TEST_CASE("a gapped part that fills is emitted while an earlier part of its range stays held") {
    // Page size 1: id 2 is held by a transaction that never ends (the horizon stays pending),
    // id 8 commits by the 14th page read, after the log's head was reached. Both pages with a
    // gap join one pending range; reading it again emits id 8 without waiting for id 2.
    FakeSetup setup(
        heldTwoAndEight(R"([2,"t0","2","u","ts",1000000],[8,"t0","8","u","ts",1000000,14])",
                        R"(,"horizon":"pending")"),
        kOneTable + R"(,"page_size":1,"max_page_size":1,"horizon_wait_seconds":3)" + kOneSession);
    auto run = runTap({"--config", setup.configPath()});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    std::map<int64_t, int> emitted;
    for (const auto& record : run.records("t0")) ++emitted[record->getValue<int64_t>("id")];
    CHECK(emitted.size() == 11);
    CHECK(emitted.count(2) == 0);
    CHECK(emitted[8] == 1);
    CHECK(run.lastState().find(R"("replication_key_value":1)") != std::string::npos);
}

TEST_CASE("held ids join one pending range, of which only the gapped parts are read again") {
    // Page size 1: ids 2 and 8 are held while the others are visible, so the pages (1, 3] and
    // (7, 9] have gaps and every page between them has none.
    FakeSetup setup(heldTwoAndEight(R"([2,"t0","2","u","ts",6],[8,"t0","8","u","ts",6])"),
                    kOneTable + R"(,"page_size":1,"max_page_size":1)");
    auto run = runTap({"--config", setup.configPath()});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    std::map<int64_t, int> emitted;
    for (const auto& record : run.records("t0")) ++emitted[record->getValue<int64_t>("id")];
    CHECK(emitted.size() == 12);
    for (const auto& [id, times] : emitted) {
        CAPTURE(id);
        CHECK(times == 1);
    }
    CHECK(run.lastState().find(R"("replication_key_value":12)") != std::string::npos);
}

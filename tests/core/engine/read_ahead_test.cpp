// Reading the next diffgen page on a second session changes when a page is read, never what
// the run emits: the same records and STATEs as a run on one session, a page read for another
// query dropped, a failing second session replaced by the main one.
#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "engine/fake_database.hpp"
#include "plugin/plugin_loader.hpp"
#include "replay/sessions/page_read_ahead.hpp"

using tapdiffgen::core::DialectConnection;
using tapdiffgen::core::EventPage;
using tapdiffgen::core::FetchedPage;
using tapdiffgen::core::KeySpec;
using tapdiffgen::core::PageQuery;
using tapdiffgen::core::PageReadAhead;
using tapdiffgen::core::PageStreams;
using tapdiffgen::core::PlanRequest;
using tapdiffgen::core::StreamSet;
using tapdiffgen::core::TableRef;
using tapdiffgen::testing::FakeSetup;
using tapdiffgen::testing::numberedDatabase;
using tapdiffgen::testing::numberedTablesSetting;
using tapdiffgen::testing::runTap;
using tapdiffgen::testing::TapRun;

namespace {

const std::string kTwoTables = numberedTablesSetting(2);

TapRun runWith(const std::string& databaseJson, const std::string& settings,
               const std::vector<std::string>& extraArguments = {}) {
    FakeSetup setup(databaseJson, kTwoTables + settings);
    std::vector<std::string> arguments = {"--config", setup.configPath()};
    for (const std::string& argument : extraArguments) {
        arguments.push_back(argument.rfind("state:", 0) == 0
                                ? setup.write("state.json", argument.substr(6))
                                : argument);
    }
    TapRun run = runTap(arguments);
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    return run;
}

const char* kUsedLine = "diffgen pages read ahead on the second session: ";

// numberedDatabase(2, 30) with event 10 (table t0, key 2) given an op no replay knows.
std::string withBadEvent() {
    std::string database = numberedDatabase(2, 30);
    const std::string good = R"([10,"t0","2","u","ts"])";
    const size_t at = database.find(good);
    REQUIRE(at != std::string::npos);
    return database.replace(at, good.size(), R"([10,"t0","2","x","ts"])");
}

size_t occurrences(const std::string& text, const std::string& part) {
    size_t count = 0;
    for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
        ++count;
    }
    return count;
}

}  // namespace

TEST_CASE("reading ahead serves every page after the first and changes no output") {
    // 30 events in pages of 4: seven full pages, then two events.
    TapRun ahead =
        runWith(numberedDatabase(2, 30), R"(,"page_size":4,"max_page_size":4,"log_level":"debug")");
    TapRun alone =
        runWith(numberedDatabase(2, 30),
                R"(,"page_size":4,"max_page_size":4,"read_ahead":false,"log_level":"debug")");
    CHECK(ahead.recordsAndStates() == alone.recordsAndStates());
    CHECK_FALSE(ahead.recordsAndStates().empty());
    CHECK(ahead.stderrText.find(std::string(kUsedLine) + "7 used, 0 dropped") != std::string::npos);
    CHECK(ahead.stderrText.find("second session, for reading ahead, connected") !=
          std::string::npos);
    CHECK(alone.stderrText.find(kUsedLine) == std::string::npos);
    CHECK(alone.stderrText.find("second session") == std::string::npos);
}

TEST_CASE("a lagging stream reads ahead on its own tables and changes no output") {
    const std::string state = R"(state:{"bookmarks":{"t0":{"replication_key_value":20}}})";
    TapRun ahead =
        runWith(numberedDatabase(2, 30), R"(,"page_size":3,"max_page_size":3,"log_level":"debug")",
                {"--state", state});
    TapRun alone =
        runWith(numberedDatabase(2, 30), R"(,"page_size":3,"max_page_size":3,"read_ahead":false)",
                {"--state", state});
    CHECK(ahead.recordsAndStates() == alone.recordsAndStates());
    CHECK(ahead.stderrText.find(kUsedLine) != std::string::npos);
}

TEST_CASE("a failing second session leaves every page to the main one, nothing lost") {
    // The second page read is the second session's first: it fails as a server restart would,
    // and the main session, broken too, reconnects.
    TapRun run = runWith(numberedDatabase(2, 30, R"(,"lose_connection_at_page":2)"),
                         R"(,"page_size":4,"max_page_size":4,"reconnect_max_wait_seconds":1)");
    CHECK(run.stderrText.find("reading the next diffgen page on a second session failed "
                              "(server closed the connection unexpectedly); this session reads "
                              "every page itself") != std::string::npos);
    CHECK(run.stderrText.find("connection lost") != std::string::npos);
    CHECK(run.lastState().find(
              R"("t0":{"replication_key":"diffgen_id","replication_key_value":30})") !=
          std::string::npos);
    CHECK(run.lastState().find(
              R"("t1":{"replication_key":"diffgen_id","replication_key_value":30})") !=
          std::string::npos);
    TapRun alone =
        runWith(numberedDatabase(2, 30), R"(,"page_size":4,"max_page_size":4,"read_ahead":false)");
    // Every row's last event came through, as in a run that never failed.
    CHECK(run.records("t0").size() >= alone.records("t0").size());
    CHECK(run.lastState() == alone.lastState());
}

TEST_CASE("a page read ahead is handed out only for exactly its query") {
    FakeSetup setup(numberedDatabase(2, 12), kTwoTables);
    auto plugin = tapdiffgen::core::loadPluginFile(TDG_FAKE_PLUGIN);
    const std::vector<std::pair<std::string, std::string>> options = {
        {"database", setup.dir() + "/database.json"}};
    int connects = 0;
    PageReadAhead readAhead([&] {
        ++connects;
        return std::make_unique<DialectConnection>(plugin, options);
    });
    const PageQuery first{TableRef{"", "diffgen"}, 0, INT64_MAX, 4, {"t0", "t1"}};
    PageQuery other = first;
    other.afterId = 4;

    CHECK_FALSE(readAhead.take(first).has_value());  // nothing started
    readAhead.start(first);
    std::optional<FetchedPage> read = readAhead.take(first);
    REQUIRE(read.has_value());
    CHECK(read->page.size() == 4);
    CHECK(read->page[0].id == 1);
    CHECK_FALSE(read->plan.has_value());             // none asked for
    CHECK_FALSE(readAhead.take(first).has_value());  // taken once only

    readAhead.start(first);
    CHECK_FALSE(readAhead.take(other).has_value());
    readAhead.start(other);
    read = readAhead.take(other);
    REQUIRE(read.has_value());
    CHECK(read->page[0].id == 5);
    CHECK(readAhead.pagesServed() == 2);
    CHECK(readAhead.readsDropped() == 1);
    CHECK(connects == 1);
}

TEST_CASE("a page read ahead is planned on the read-ahead's thread when asked") {
    auto plugin = tapdiffgen::core::loadPluginFile(TDG_FAKE_PLUGIN);
    const auto key = std::make_shared<const KeySpec>(
        KeySpec{{tapdiffgen::core::KeyColumn{"id", TDG_KIND_INT64, false, "bigint", -1}}});
    auto streams = std::make_shared<PageStreams>();
    streams->add("t0", {key, false, "t0"});
    streams->add("t1", {key, false, "t1"});
    const PageQuery query{TableRef{"", "diffgen"}, 0, INT64_MAX, 12, {"t0", "t1"}};

    FakeSetup setup(numberedDatabase(2, 12), kTwoTables);
    const std::vector<std::pair<std::string, std::string>> options = {
        {"database", setup.dir() + "/database.json"}};
    PageReadAhead readAhead([&] { return std::make_unique<DialectConnection>(plugin, options); });
    readAhead.start(query, PlanRequest{streams, StreamSet(2, {1}), false});
    std::optional<FetchedPage> read = readAhead.take(query);
    REQUIRE(read.has_value());
    REQUIRE(read->plan.has_value());
    CHECK(read->plannedFor == StreamSet(2, {1}));
    // Events 1..12 over keys 1..3: t1 has the odd ids, and the latest for each key is 7, 9, 11.
    CHECK(read->plan->streams()[0].events.empty());
    const auto& events = read->plan->streams()[1].events;
    REQUIRE(events.size() == 3);
    CHECK(events[0].id == 7);
    CHECK(events[1].id == 9);
    CHECK(events[2].id == 11);
    CHECK(read->plan->streams()[1].findEvent(events[1].key.canonical()) == 1);

    // A bad event leaves the plan to the replay; the page itself is served.
    FakeSetup bad(withBadEvent(), kTwoTables);
    const std::vector<std::pair<std::string, std::string>> badOptions = {
        {"database", bad.dir() + "/database.json"}};
    PageReadAhead badAhead([&] { return std::make_unique<DialectConnection>(plugin, badOptions); });
    badAhead.start(query, PlanRequest{streams, StreamSet(2, {0, 1}), false});
    read = badAhead.take(query);
    REQUIRE(read.has_value());
    CHECK(read->page.size() == 12);
    CHECK_FALSE(read->plan.has_value());
}

TEST_CASE("a bad event on a page read ahead fails or is skipped as on one session") {
    for (const std::string policy : {"fail", "skip"}) {
        CAPTURE(policy);
        const std::string settings =
            R"(,"page_size":4,"max_page_size":4,"on_bad_event":")" + policy + "\"";
        FakeSetup aheadSetup(withBadEvent(), kTwoTables + settings + R"(,"log_level":"debug")");
        TapRun ahead = runTap({"--config", aheadSetup.configPath()});
        FakeSetup aloneSetup(withBadEvent(), kTwoTables + settings + R"(,"read_ahead":false)");
        TapRun alone = runTap({"--config", aloneSetup.configPath()});
        CHECK(ahead.exitCode == alone.exitCode);
        CHECK(ahead.recordsAndStates() == alone.recordsAndStates());
        const std::string why = "diffgen id 10 (table 't0'): unknown op 'x'";
        CHECK(occurrences(ahead.stderrText, why) == 1);
        CHECK(occurrences(alone.stderrText, why) == 1);
        if (policy == "fail") {
            CHECK(ahead.exitCode != 0);
        } else {
            CHECK(ahead.exitCode == 0);
            CHECK(ahead.stderrText.find(kUsedLine) != std::string::npos);
        }
    }
}

TEST_CASE("a second session that cannot connect is not tried again") {
    int connects = 0;
    PageReadAhead readAhead([&]() -> std::unique_ptr<DialectConnection> {
        ++connects;
        throw std::runtime_error("too many connections");
    });
    const PageQuery query{TableRef{"", "diffgen"}, 0, INT64_MAX, 4, {"t0"}};
    readAhead.start(query);
    CHECK_FALSE(readAhead.take(query).has_value());
    readAhead.start(query);
    CHECK_FALSE(readAhead.take(query).has_value());
    CHECK(connects == 1);
}

TEST_CASE("closing while a read runs interrupts it") {
    FakeSetup setup(numberedDatabase(2, 12, R"(,"page_delay_ms":3000)"), kTwoTables);
    auto plugin = tapdiffgen::core::loadPluginFile(TDG_FAKE_PLUGIN);
    const std::vector<std::pair<std::string, std::string>> options = {
        {"database", setup.dir() + "/database.json"}};
    const auto started = std::chrono::steady_clock::now();
    {
        PageReadAhead readAhead(
            [&] { return std::make_unique<DialectConnection>(plugin, options); });
        readAhead.start(PageQuery{TableRef{"", "diffgen"}, 0, INT64_MAX, 4, {"t0"}});
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    // The read would take 3 s; the destructor cancelled it instead of waiting.
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(2));
}

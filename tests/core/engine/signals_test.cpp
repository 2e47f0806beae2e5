// The real binary stopped mid-run: SIGTERM and SIGINT end at a page boundary with the last
// safe STATE and exit 0; after SIGKILL the next run from the last STATE loses nothing.
#include <doctest/doctest.h>

#include <Poco/JSON/Parser.h>
#include <signal.h>

#include <chrono>
#include <set>
#include <thread>

#include "engine/fake_database.hpp"
#include "support/tap_process.hpp"

using namespace tapdiffgen::testing;

namespace {

// 60 events over rows 1..60 of one table, read four per page, each page taking 100 ms.
std::string slowDatabase() {
    std::string rows;
    std::string events;
    for (int i = 1; i <= 60; ++i) {
        if (i > 1) {
            rows += ",";
            events += ",";
        }
        rows += "[" + std::to_string(i) + ",\"v\"]";
        events += "[" + std::to_string(i) + ",\"t\",\"" + std::to_string(i) + "\",\"i\",\"ts\"]";
    }
    return R"({"page_delay_ms":100,"tables":{"t":{"columns":[{"name":"id","kind":"int64","pk":true},)"
           R"({"name":"v","kind":"text"}],"rows":[)" +
           rows + R"(]}},"diffgen":[)" + events + "]}";
}

const char* kTable =
    R"("page_size":4,"max_page_size":4,"tables":[{"table_name":"t","pk_column":"id"}])";

void waitForStates(const TapProcess& process, size_t count) {
    for (int i = 0; i < 200; ++i) {
        const std::string out = process.stdoutSoFar();
        size_t states = 0;
        for (size_t at = out.find("\"STATE\""); at != std::string::npos;
             at = out.find("\"STATE\"", at + 1)) {
            ++states;
        }
        if (states >= count) return;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    FAIL("the tap wrote no STATE in time");
}

int64_t lastBookmark(const TapRun& run) {
    return run.messages("STATE")
        .back()
        ->getObject("value")
        ->getObject("bookmarks")
        ->getObject("t")
        ->getValue<int64_t>("replication_key_value");
}

void stopsCleanlyOn(int signalNumber, const char* name) {
    FakeSetup setup(slowDatabase(), kTable);
    TapProcess process({"--config", setup.configPath()});
    waitForStates(process, 2);
    process.signal(signalNumber);
    TapRun run = process.wait();
    CHECK(run.exitCode == 0);
    REQUIRE_FALSE(run.lines.empty());
    for (const auto& line : run.lines) {
        Poco::JSON::Parser parser;
        CHECK_NOTHROW(parser.parse(line));  // never a half-written line
    }
    CHECK(run.lines.back().find(R"("type":"STATE")") != std::string::npos);
    int64_t bookmark = lastBookmark(run);
    CHECK(bookmark % 4 == 0);
    CHECK(bookmark < 60);
    CHECK(run.records("t").size() >= static_cast<size_t>(bookmark));
    CHECK(run.stderrText.find(std::string("stopped by ") + name) != std::string::npos);
}

}  // namespace

TEST_CASE("SIGTERM writes the last safe STATE and exits 0") { stopsCleanlyOn(SIGTERM, "SIGTERM"); }

TEST_CASE("SIGINT writes the last safe STATE and exits 0") { stopsCleanlyOn(SIGINT, "SIGINT"); }

TEST_CASE("after SIGKILL the next run from the last STATE loses nothing") {
    FakeSetup setup(slowDatabase(), kTable);
    TapProcess process({"--config", setup.configPath()});
    waitForStates(process, 3);
    process.signal(SIGKILL);
    TapRun killed = process.wait();
    CHECK(killed.exitCode == 128 + SIGKILL);
    // Whatever a target accepted before the kill: complete lines up to the last STATE.
    std::set<int64_t> seen;
    std::string lastState;
    std::vector<int64_t> pending;
    for (const auto& line : killed.lines) {
        Poco::JSON::Parser parser;
        Poco::JSON::Object::Ptr message;
        try {
            message = parser.parse(line).extract<Poco::JSON::Object::Ptr>();
        } catch (const Poco::Exception&) {
            break;  // a line cut by the kill
        }
        if (message->getValue<std::string>("type") == "RECORD") {
            pending.push_back(message->getObject("record")->getValue<int64_t>("id"));
        } else if (message->getValue<std::string>("type") == "STATE") {
            seen.insert(pending.begin(), pending.end());
            pending.clear();
            std::ostringstream value;
            message->getObject("value")->stringify(value);
            lastState = value.str();
        }
    }
    REQUIRE_FALSE(lastState.empty());
    TapRun resumed = runTapBinary(
        {"--config", setup.configPath(), "--state", setup.write("state.json", lastState)});
    REQUIRE(resumed.exitCode == 0);
    for (const auto& record : resumed.records("t")) seen.insert(record->getValue<int64_t>("id"));
    CHECK(seen.size() == 60);
}

// Sharing a page's re-pulls with other sessions changes which session reads a row, never what
// the run emits: the same records, in the same order, and the same STATEs as one session, with
// maps too; a share whose session fails is re-pulled on the run's own session.
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/fake_database.hpp"
#include "replay/sessions/repull_shares.hpp"
#include "replay/sessions/session_worker.hpp"
#include "singer/record_spool.hpp"

using tapdiffgen::core::DialectConnection;
using tapdiffgen::core::DialectError;
using tapdiffgen::core::RecordSink;
using tapdiffgen::core::RecordSpool;
using tapdiffgen::core::SessionWorker;
using tapdiffgen::core::shareBoundaries;
using tapdiffgen::core::sharedChunkSize;
using tapdiffgen::testing::FakeSetup;
using tapdiffgen::testing::numberedDatabase;
using tapdiffgen::testing::NumberedRows;
using tapdiffgen::testing::numberedTablesSetting;
using tapdiffgen::testing::runTap;
using tapdiffgen::testing::TapRun;

namespace {

// 3 tables of 900 rows, 100 more keys gone each, and 6,000 events: pages of 3,000 hold
// about 1,000 keys a table.
std::string backlog(const std::string& extra = "") {
    return numberedDatabase(3, 6000, NumberedRows{900, 100}, extra);
}

// A row gone is deleted "now" (_sdc_deleted_at), which differs from run to run: left out.
TapRun runOverThreeTables(const std::string& databaseJson, const std::string& settings) {
    FakeSetup setup(databaseJson,
                    numberedTablesSetting(3) +
                        R"(,"page_size":3000,"max_page_size":3000,"log_level":"debug",)"
                        R"("add_sdc_deleted_at":false)" +
                        settings);
    TapRun run = runTap({"--config", setup.configPath()});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    return run;
}

std::string stdoutOf(const TapRun& run) {
    std::string text;
    for (const std::string& line : run.lines) text += line + "\n";
    return text;
}

std::string sharesLine(const std::string& readThere, const std::string& takenBack) {
    return "re-pull shares on other sessions: " + readThere + " read there, " + takenBack +
           " taken back";
}

const char* kFailedWarning =
    "re-pulling rows on another session failed (server closed the connection unexpectedly); "
    "this session re-pulls every row itself";

// Writes what it is given into one text, as a writer would, records tagged by stream.
class TextSink : public RecordSink {
public:
    std::string& beginRecord(std::string_view stream) override {
        text += "<";
        text += stream;
        text += ">";
        return text;
    }
    void endRecord(std::string_view timeExtracted) override {
        text += "@";
        text += timeExtracted;
        text += "\n";
    }
    std::string text;
};

}  // namespace

TEST_CASE("shares are contiguous runs of chunks of about as many keys each") {
    CHECK(shareBoundaries({100, 100, 100, 100}, {true, true, true, true}, 2) ==
          std::vector<size_t>{2});
    CHECK(shareBoundaries({100, 100, 100, 100}, {true, true, true, true}, 4) ==
          std::vector<size_t>{1, 2, 3});
    CHECK(shareBoundaries({300, 100, 100, 100}, {true, true, true, true}, 2) ==
          std::vector<size_t>{1});
    // A chunk a share may not start at (inside a mapped stream) moves the boundary.
    CHECK(shareBoundaries({100, 100, 100, 100}, {true, true, false, true}, 2) ==
          std::vector<size_t>{1});
    // Fewer shares than asked when the chunks do not allow more.
    CHECK(shareBoundaries({100, 100}, {true, true}, 3) == std::vector<size_t>{1});
    CHECK(shareBoundaries({100, 100}, {true, false}, 2).empty());
    CHECK(shareBoundaries({100}, {true}, 2).empty());
    CHECK(shareBoundaries({}, {}, 2).empty());
}

TEST_CASE("a large stream is cut into chunks the sessions can share") {
    CHECK(sharedChunkSize(10000, 9000, 1) == 10000);
    CHECK(sharedChunkSize(10000, 9000, 2) == 4500);
    CHECK(sharedChunkSize(10000, 9001, 2) == 4501);
    CHECK(sharedChunkSize(4000, 9000, 2) == 4000);
    // Not into statements of a handful of keys.
    CHECK(sharedChunkSize(10000, 300, 2) == 256);
}

TEST_CASE("a spool hands its records on exactly as they were written") {
    TextSink direct;
    RecordSpool spool;
    for (RecordSink* sink : {static_cast<RecordSink*>(&direct), static_cast<RecordSink*>(&spool)}) {
        sink->beginRecord("t0") += R"("id":1)";
        sink->endRecord("2026-01-01T00:00:00Z");
        sink->beginRecord("a stream") += R"("id":2,"v":"x")";
        sink->endRecord("later");
    }
    CHECK(spool.size() == 2);
    TextSink replayed;
    replayed.text = "before\n";
    spool.writeTo(replayed);
    CHECK(replayed.text == "before\n" + direct.text);
    CHECK(spool.size() == 0);
    spool.writeTo(replayed);
    CHECK(replayed.text == "before\n" + direct.text);
}

TEST_CASE("a spool of many MiB, records larger than its blocks among them, is handed on intact") {
    RecordSpool spool;
    for (int round = 0; round < 2; ++round) {  // the second reuses the first one's memory
        TextSink direct;
        for (int i = 0; i < 6000; ++i) {
            // Now and then a record of 100 KiB, larger than what a block keeps free.
            const std::string value(i % 997 == 0 ? 100 * 1024 : 300 + i % 500, 'a' + i % 26);
            const std::string members = R"("id":)" + std::to_string(i) + R"(,"v":")" + value + "\"";
            for (RecordSink* sink :
                 {static_cast<RecordSink*>(&direct), static_cast<RecordSink*>(&spool)}) {
                sink->beginRecord("s" + std::to_string(i % 3)) += members;
                sink->endRecord(round == 0 ? "t0" : "t1");
            }
        }
        CHECK(spool.size() == 6000);
        CHECK(direct.text.size() > (size_t{3} << 20));
        TextSink replayed;
        spool.writeTo(replayed);
        CHECK(replayed.text == direct.text);
        CHECK(spool.size() == 0);
    }
}

TEST_CASE("a worker session that fails refuses every later job") {
    int connects = 0;
    SessionWorker worker(
        [&]() -> std::unique_ptr<DialectConnection> {
            ++connects;
            throw DialectError(TDG_IO, "too many connections", "53300", true);
        },
        "working", "the caller works");
    CHECK_FALSE(worker.wait());  // nothing started
    CHECK(worker.start([](DialectConnection&) {}));
    CHECK_FALSE(worker.wait());
    CHECK_FALSE(worker.start([](DialectConnection&) {}));
    CHECK(connects == 1);
}

TEST_CASE("sharing re-pulls between sessions changes no output") {
    TapRun one = runOverThreeTables(backlog(), R"(,"repull_sessions":1)");
    TapRun two = runOverThreeTables(backlog(), "");
    TapRun four = runOverThreeTables(backlog(), R"(,"repull_sessions":4)");
    REQUIRE(one.recordsAndStates().size() > 2000);
    CHECK(two.recordsAndStates() == one.recordsAndStates());
    // Shared four ways, a table's keys are cut into two statements, whose rows come back in
    // another order: the same records and STATEs all the same.
    std::vector<std::string> fourWays = four.recordsAndStates();
    std::vector<std::string> oneWay = one.recordsAndStates();
    std::sort(fourWays.begin(), fourWays.end());
    std::sort(oneWay.begin(), oneWay.end());
    CHECK(fourWays == oneWay);
    CHECK(four.lastState() == one.lastState());
    // Rows gone since their event are tombstones whichever session looked for them.
    CHECK(stdoutOf(one).find(R"("id":1000,"v":null,"is_deleted":true)") != std::string::npos);
    // Two pages: the first read on the run's own session, which measures its records, the
    // second with a share on every other session.
    CHECK(two.stderrText.find(sharesLine("1", "0")) != std::string::npos);
    CHECK(two.stderrText.find("another session, for re-pulling rows, connected") !=
          std::string::npos);
    CHECK(four.stderrText.find(sharesLine("3", "0")) != std::string::npos);
    CHECK(one.stderrText.find("re-pull shares") == std::string::npos);
    CHECK(one.stderrText.find("for re-pulling rows") == std::string::npos);
}

TEST_CASE("a page of one table is shared too, and a mapped table stays on one session") {
    // Two pages: the second is shared.
    FakeSetup oneTable(
        numberedDatabase(1, 4000, NumberedRows{1500, 0}),
        numberedTablesSetting(1) + R"(,"page_size":2000,"max_page_size":2000,"log_level":"debug")");
    TapRun shared = runTap({"--config", oneTable.configPath()});
    REQUIRE_MESSAGE(shared.exitCode == 0, shared.stderrText);
    CHECK(shared.stderrText.find(sharesLine("1", "0")) != std::string::npos);

    const std::string maps =
        R"J(,"stream_maps":{"t1":{"w":"v + '!'"},"t2":{"__alias__":"two","v":"v.upper()"}})J";
    TapRun one = runOverThreeTables(backlog(), R"(,"repull_sessions":1)" + maps);
    TapRun three = runOverThreeTables(backlog(), R"(,"repull_sessions":3)" + maps);
    REQUIRE(stdoutOf(one).find(R"("w":"v1-4!")") != std::string::npos);
    REQUIRE(stdoutOf(one).find(R"("stream":"two")") != std::string::npos);
    CHECK(three.recordsAndStates() == one.recordsAndStates());
    // Each table of the second page is a chunk of its own: a share each.
    CHECK(three.stderrText.find(sharesLine("2", "0")) != std::string::npos);
}

namespace {

// One table of `rows` rows whose v is `width` bytes, and 2 × rows events: two pages of `rows`
// keys each.
std::string oneTableOfWidth(int rows, size_t width) {
    std::string json = R"({"tables":{"t0":{"columns":[{"name":"id","kind":"int64","pk":true},)"
                       R"({"name":"v","kind":"text"}],"rows":[)";
    const std::string value(width, 'w');
    for (int id = 1; id <= rows; ++id) {
        json += (id > 1 ? ",[" : "[") + std::to_string(id) + ",\"" + value + "\"]";
    }
    json += R"(]}},"diffgen":[)";
    for (int e = 1; e <= 2 * rows; ++e) {
        json += (e > 1 ? ",[" : "[") + std::to_string(e) + R"(,"t0",")" +
                std::to_string(e % rows + 1) + R"(","u","ts"])";
    }
    return json + "]}";
}

TapRun runOverOneTable(const std::string& databaseJson) {
    FakeSetup setup(databaseJson, numberedTablesSetting(1) +
                                      R"(,"page_size":1000,"max_page_size":1000,)"
                                      R"("log_level":"debug","read_ahead":false)");
    TapRun run = runTap({"--config", setup.configPath()});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    return run;
}

}  // namespace

TEST_CASE("a page whose share would wait in memory beyond 16 MiB is read on one session") {
    // The other session's half of a page of 1,000 rows of 40 KiB would wait in its spool as
    // 20 MiB: every page is read on the run's own session, its rows written as they come.
    TapRun wide = runOverOneTable(oneTableOfWidth(1000, 40 << 10));
    CHECK(wide.recordsAndStates().size() > 2000);
    CHECK(wide.stderrText.find(sharesLine("0", "0")) != std::string::npos);
    // The same pages of rows of 20 KiB spool 10 MiB: the second page is shared.
    TapRun narrower = runOverOneTable(oneTableOfWidth(1000, 20 << 10));
    CHECK(narrower.recordsAndStates().size() > 2000);
    CHECK(narrower.stderrText.find(sharesLine("1", "0")) != std::string::npos);
}

TEST_CASE("a share whose session fails is re-pulled on the run's own session, nothing lost") {
    // The second connection is the re-pull session (no read-ahead session here).
    TapRun failing =
        runOverThreeTables(backlog(R"(,"fail_fetches_on_connection":2)"), R"(,"read_ahead":false)");
    TapRun one = runOverThreeTables(backlog(), R"(,"repull_sessions":1,"read_ahead":false)");
    CHECK(failing.recordsAndStates() == one.recordsAndStates());
    CHECK(failing.stderrText.find(kFailedWarning) != std::string::npos);
    // Warned once; the failed session is not asked again.
    CHECK(failing.stderrText.find(kFailedWarning) == failing.stderrText.rfind(kFailedWarning));
    CHECK(failing.stderrText.find(sharesLine("0", "1")) != std::string::npos);

    TapRun refused =
        runOverThreeTables(backlog(R"(,"refuse_connection":2)"), R"(,"read_ahead":false)");
    CHECK(refused.recordsAndStates() == one.recordsAndStates());
    CHECK(refused.stderrText.find("re-pulling rows on another session failed (cannot connect: "
                                  "too many connections); this session re-pulls every row "
                                  "itself") != std::string::npos);
}

TEST_CASE(
    "a share the server interrupts (CANCELLED that the tap never asked for) is warned about") {
    // A server's KILL interrupts the query before it ends the connection, and the driver
    // reports an interrupted query as CANCELLED: only a cancel the worker sent is no news.
    TapRun interrupted = runOverThreeTables(backlog(R"(,"interrupt_fetches_on_connection":2)"),
                                            R"(,"read_ahead":false)");
    TapRun one = runOverThreeTables(backlog(), R"(,"repull_sessions":1,"read_ahead":false)");
    CHECK(interrupted.recordsAndStates() == one.recordsAndStates());
    const std::string warning =
        "re-pulling rows on another session failed (query execution was interrupted); this "
        "session re-pulls every row itself";
    CHECK(interrupted.stderrText.find(warning) != std::string::npos);
    CHECK(interrupted.stderrText.find(warning) == interrupted.stderrText.rfind(warning));
    CHECK(interrupted.stderrText.find(sharesLine("0", "1")) != std::string::npos);
}

TEST_CASE("losing the server while shares run reconnects and resumes from the last STATE") {
    // The fourth re-pull of the process: one of the second page's, both sessions at work.
    TapRun lost = runOverThreeTables(backlog(R"(,"lose_connection_at_fetch":4)"),
                                     R"(,"read_ahead":false,"reconnect_max_wait_seconds":1)");
    TapRun clean = runOverThreeTables(backlog(), R"(,"repull_sessions":1)");
    CHECK(lost.stderrText.find("connection lost") != std::string::npos);
    CHECK(lost.lastState() == clean.lastState());
    // The first page's records, then the second page's again after the reconnect.
    CHECK(lost.records("t0").size() >= clean.records("t0").size());
    CHECK(lost.records("t1").size() >= clean.records("t1").size());
}

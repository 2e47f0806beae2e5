// A real connection dropped mid-run: the server ends the tap's sessions (as a restart or a
// network cut would), and the tap reconnects with backoff and finishes without losing a row;
// or it ends only the session that reads ahead, and the main session reads on alone.
#include <doctest/doctest.h>

#include <chrono>
#include <functional>
#include <thread>

#include "dialect_fixture.hpp"
#include "tap_sessions.hpp"

using namespace tapdiffgen::testing;

namespace {

constexpr int kRows = 3000;

// Replays kRows one-event pages (thousands of statements, so a session ends mid-run) while
// `endSessions(process)` is tried every 10 ms until it ends one; then checks that
// the run succeeded and every row and the last bookmark came through. `tooLate` says what the
// failure means when the run ended first.
TapRun replayWhileEnding(const DatabaseEnv& env, const std::string& prefix,
                         const std::function<int(const TapProcess&)>& endSessions,
                         const char* tooLate) {
    JournalledSchema schema(env, prefix);
    const std::string table = schema.createNumberedItems(kRows);
    ScratchDir dir;
    const std::string config = schema.writeConfig(
        dir, {table}, R"("page_size":1,"max_page_size":1,"reconnect_max_wait_seconds":1)");
    TapProcess process({"--config", config});
    int ended = 0;
    for (int attempt = 0; attempt < 500 && ended == 0; ++attempt) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        ended = endSessions(process);
    }
    TapRun run = process.wait();
    REQUIRE_MESSAGE(ended > 0, tooLate);
    CHECK_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(emittedIds(run, table).size() == static_cast<size_t>(kRows));
    CHECK(run.lastState().find("\"replication_key_value\":" + std::to_string(kRows)) !=
          std::string::npos);
    return run;
}

void survivesADroppedConnection(const DatabaseEnv& env, const std::string& prefix) {
    // Once the first record is out, every session of the tap, as a restart would end them.
    // Waiting for output rather than for a statement on the log in flight: a one-event page
    // lasts microseconds, and a busy machine's sampling misses every one.
    const auto endAll = [&](const TapProcess& process) {
        if (process.stdoutSoFar().find("\"type\":\"RECORD\"") == std::string::npos) return 0;
        return endSessionsOf(env, process.pid());
    };
    TapRun run = replayWhileEnding(env, prefix, endAll,
                                   "the tap finished before its session could be ended");
    CHECK(run.stderrText.find("connection lost") != std::string::npos);
}

// Only the session that reads ahead is ended; the main one goes on alone.
void survivesALostReadAheadSession(const DatabaseEnv& env, const std::string& prefix) {
    // The second session connects after the first page: from then on only it reads the log.
    // Pages of one event are never shared out, so no re-pull session is opened beside it.
    const auto endReadAhead = [&](const TapProcess& process) {
        return endNewestSessionOf(env, process.pid());
    };
    TapRun run = replayWhileEnding(env, prefix, endReadAhead,
                                   "the tap finished before its second session could be ended");
    CHECK(run.stderrText.find("reading the next diffgen page on a second session failed") !=
          std::string::npos);
    CHECK(run.stderrText.find("connection lost") == std::string::npos);
}

}  // namespace

TEST_CASE("postgres: a connection ended by the server is re-opened and nothing is lost") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    survivesADroppedConnection(db, "conn_loss");
}

TEST_CASE("mysql: a connection killed by the server is re-opened and nothing is lost") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    survivesADroppedConnection(db, "conn_loss");
}

TEST_CASE("postgres: a lost read-ahead session leaves the pages to the main one, nothing lost") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    survivesALostReadAheadSession(db, "ahead_loss");
}

TEST_CASE("mysql: a lost read-ahead session leaves the pages to the main one, nothing lost") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    survivesALostReadAheadSession(db, "ahead_loss");
}

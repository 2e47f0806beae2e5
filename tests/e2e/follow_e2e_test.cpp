// follow: the tap stays at the log's head and emits changes made after it started, keeps the
// bookmark before a transaction held open while later changes flow, writes STATE while idle,
// stops on SIGTERM during a wait, and keeps its time limits across a reconnect forced by the
// server ending its session.
#include <dirent.h>
#include <doctest/doctest.h>

#include <chrono>
#include <csignal>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "dialect_fixture.hpp"
#include "support/held_transaction.hpp"
#include "tap_sessions.hpp"

using namespace tapdiffgen::testing;

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

TapRun outputSoFar(const TapProcess& process) {
    TapRun partial;
    partial.setOutput(process.stdoutSoFar(), "");
    return partial;
}

// Waits up to `seconds` for `ready` to hold over the output so far.
bool waitForOutput(const TapProcess& process, const std::function<bool(const TapRun&)>& ready,
                   double seconds = 20) {
    const auto start = Clock::now();
    while (secondsSince(start) < seconds) {
        if (ready(outputSoFar(process))) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
}

std::map<int, int> recordCountById(const TapRun& run, const std::string& stream) {
    std::map<int, int> counts;
    for (const auto& record : run.records(stream)) ++counts[record->getValue<int>("id")];
    return counts;
}

bool hasRecord(const TapRun& run, const std::string& stream, int id) {
    return recordCountById(run, stream).count(id) > 0;
}

int64_t maxDiffgenId(const JournalledSchema& schema) {
    return std::stoll(queryScalar(schema.env(), "SELECT max(id) FROM " + schema.diffgenTable()));
}

struct Followed {
    JournalledSchema schema;
    std::string table;
    ScratchDir dir;

    Followed(const DatabaseEnv& env, const std::string& prefix) : schema(env, prefix) {
        schema.createTable("items", "id INTEGER PRIMARY KEY, note VARCHAR(20)", "id");
        table = schema.table("items");
        schema.exec("INSERT INTO " + table + " VALUES (1, 'before')");
    }

    std::string config(const std::string& extra) const {
        return schema.writeConfig(dir, {table}, std::string(R"("follow":true,)") + extra);
    }

    void insert(int id) const {
        schema.exec("INSERT INTO " + table + " VALUES (" + std::to_string(id) + ", 'later')");
    }
};

bool atHead(const TapRun& run) { return !run.messages("STATE").empty(); }

void emitsChangesMadeAfterTheStart(const DatabaseEnv& env, const std::string& prefix) {
    Followed followed(env, prefix);
    TapProcess process({"--config", followed.config(R"("poll_interval_seconds":0.2,)"
                                                    R"("max_run_seconds":60)")});
    REQUIRE(waitForOutput(process, atHead));
    followed.insert(2);
    followed.schema.exec("UPDATE " + followed.table + " SET note = 'changed' WHERE id = 1");
    followed.insert(3);
    const std::string table = followed.table;
    CHECK(waitForOutput(process, [&](const TapRun& run) { return hasRecord(run, table, 3); }));
    const int64_t head = maxDiffgenId(followed.schema);
    CHECK(
        waitForOutput(process, [&](const TapRun& run) { return run.lastBookmark(table) == head; }));
    process.signal(SIGTERM);
    TapRun run = process.wait();
    CHECK_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(run.stderrText.find("(stopped by SIGTERM)") != std::string::npos);
    auto counts = recordCountById(run, table);
    CHECK(counts[2] == 1);
    CHECK(counts[3] == 1);
    // Row 1: once at the start, once for its update.
    CHECK(counts[1] == 2);
    CHECK(run.lastBookmark(table).value_or(-1) == head);
}

void heldTransactionDoesNotStopTheStream(const DatabaseEnv& env, const std::string& prefix) {
    Followed followed(env, prefix);
    const std::string table = followed.table;
    TapProcess process({"--config", followed.config(R"("poll_interval_seconds":0.2,)"
                                                    R"("max_run_seconds":60)")});
    REQUIRE(waitForOutput(process, atHead));
    HeldTransaction held(env, "INSERT INTO " + table + " VALUES (2, 'held')");
    const int64_t heldId = maxDiffgenId(followed.schema) + 1;
    followed.insert(3);
    REQUIRE(waitForOutput(process, [&](const TapRun& run) { return hasRecord(run, table, 3); }));
    followed.insert(4);
    REQUIRE(waitForOutput(process, [&](const TapRun& run) { return hasRecord(run, table, 4); }));
    TapRun meanwhile = outputSoFar(process);
    CHECK_FALSE(hasRecord(meanwhile, table, 2));
    CHECK(meanwhile.lastBookmark(table).value_or(-1) < heldId);

    held.commit();
    CHECK(waitForOutput(process, [&](const TapRun& run) { return hasRecord(run, table, 2); }));
    const int64_t head = maxDiffgenId(followed.schema);
    CHECK(
        waitForOutput(process, [&](const TapRun& run) { return run.lastBookmark(table) == head; }));
    process.signal(SIGTERM);
    TapRun run = process.wait();
    CHECK_MESSAGE(run.exitCode == 0, run.stderrText);
    auto counts = recordCountById(run, table);
    CHECK(counts[2] == 1);
    CHECK(counts[3] == 1);
    CHECK(counts[4] == 1);
}

void writesStateWhileIdle(const DatabaseEnv& env, const std::string& prefix) {
    Followed followed(env, prefix);
    TapProcess process({"--config", followed.config(R"("poll_interval_seconds":0.2,)"
                                                    R"("state_interval_seconds":1,)"
                                                    R"("max_run_seconds":60)")});
    REQUIRE(waitForOutput(process, atHead));
    const size_t statesAtHead = outputSoFar(process).messages("STATE").size();
    // A STATE each second: at least three in 4.5 s, also on a loaded machine.
    std::this_thread::sleep_for(std::chrono::milliseconds(4500));
    const size_t statesLater = outputSoFar(process).messages("STATE").size();
    process.signal(SIGTERM);
    TapRun run = process.wait();
    CHECK_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(statesLater >= statesAtHead + 3);
    CHECK(run.records(followed.table).size() == 1);
}

void sigtermEndsAWait(const DatabaseEnv& env, const std::string& prefix) {
    Followed followed(env, prefix);
    TapProcess process({"--config", followed.config(R"("poll_interval_seconds":30,)"
                                                    R"("max_run_seconds":120)")});
    REQUIRE(waitForOutput(process, atHead));
    // The empty reads after the first have pushed the wait up towards 30 s.
    std::this_thread::sleep_for(std::chrono::seconds(2));
    const auto signalled = Clock::now();
    process.signal(SIGTERM);
    TapRun run = process.wait();
    CHECK(secondsSince(signalled) < 2.0);
    CHECK_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(run.stderrText.find("(stopped by SIGTERM)") != std::string::npos);
    CHECK(run.lastBookmark(followed.table).value_or(-1) == maxDiffgenId(followed.schema));
}

// limit: the setting under test, e.g. "max_run_seconds":4; reason: the summary's stop reason.
void limitHoldsAcrossAReconnect(const DatabaseEnv& env, const std::string& prefix,
                                const std::string& limit, double limitSeconds,
                                const std::string& reason) {
    Followed followed(env, prefix);
    const auto started = Clock::now();
    TapProcess process({"--config", followed.config(R"("poll_interval_seconds":0.2,)"
                                                    R"("reconnect_max_wait_seconds":1,)" +
                                                    limit)});
    REQUIRE(waitForOutput(process, atHead));
    std::this_thread::sleep_for(std::chrono::milliseconds(
        std::max<int64_t>(0, 1500 - static_cast<int64_t>(secondsSince(started) * 1000))));
    const int ended = endSessionsOf(env, process.pid());
    TapRun run = process.wait();
    const double seconds = secondsSince(started);
    REQUIRE_MESSAGE(ended > 0, "no session of the tap was found to end");
    CHECK_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(run.stderrText.find("connection lost") != std::string::npos);
    CHECK(run.stderrText.find("(" + reason + ")") != std::string::npos);
    // A clock restarted by the reconnect (at about 2.7 s) would end the run after
    // 2.7 + limitSeconds; the margin is for start-up and exit on a loaded machine.
    CHECK(seconds >= limitSeconds);
    CHECK(seconds < limitSeconds + 1.5);
}

// With notify_channel and the documented trigger, a commit wakes the tap although its poll
// interval is a minute: a tap that did not listen would wait out that minute.
void notificationWakesTheTap(const DatabaseEnv& env, const std::string& prefix) {
    Followed followed(env, prefix);
    const std::string channel = prefix + "_changes";
    followed.schema.exec("CREATE TRIGGER " + prefix + "_notify AFTER INSERT ON " +
                         followed.schema.diffgenTable() + " FOR EACH STATEMENT EXECUTE FUNCTION " +
                         prefix + "_diffgen_notify('" + channel + "')");
    TapProcess process({"--config", followed.config(R"("poll_interval_seconds":60,)"
                                                    R"("notify_channel":")" +
                                                    channel + R"(","max_run_seconds":120)")});
    REQUIRE(waitForOutput(process, atHead));
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    const std::string table = followed.table;
    for (int id = 2; id <= 4; ++id) {
        const auto committed = Clock::now();
        followed.insert(id);
        CHECK(waitForOutput(
            process, [&](const TapRun& run) { return hasRecord(run, table, id); }, 5));
        CHECK(secondsSince(committed) < 5);
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
    }
    process.signal(SIGTERM);
    TapRun run = process.wait();
    CHECK_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(run.stderrText.find("(stopped by SIGTERM)") != std::string::npos);
    CHECK(run.lastBookmark(table).value_or(-1) == maxDiffgenId(followed.schema));
}

}  // namespace

TEST_CASE("postgres: follow emits the changes made after the run started") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    emitsChangesMadeAfterTheStart(db, "follow_new");
}

TEST_CASE("mysql: follow emits the changes made after the run started") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    emitsChangesMadeAfterTheStart(db, "follow_new");
}

TEST_CASE("postgres: following, a held transaction holds the bookmark while later ids flow") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    heldTransactionDoesNotStopTheStream(db, "follow_held");
}

TEST_CASE("mysql: following, a held transaction holds the bookmark while later ids flow") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    heldTransactionDoesNotStopTheStream(db, "follow_held");
}

TEST_CASE("postgres: following and idle, a STATE every state_interval_seconds") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    writesStateWhileIdle(db, "follow_idle_state");
}

TEST_CASE("mysql: following and idle, a STATE every state_interval_seconds") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    writesStateWhileIdle(db, "follow_idle_state");
}

TEST_CASE("postgres: SIGTERM during a follow wait stops at once with the final STATE") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    sigtermEndsAWait(db, "follow_sigterm");
}

TEST_CASE("mysql: SIGTERM during a follow wait stops at once with the final STATE") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    sigtermEndsAWait(db, "follow_sigterm");
}

TEST_CASE("postgres: max_run_seconds holds across a reconnect forced by the server") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    limitHoldsAcrossAReconnect(db, "follow_max_run", R"("max_run_seconds":4)", 4,
                               "max_run_seconds reached");
}

TEST_CASE("mysql: max_run_seconds holds across a reconnect forced by the server") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    limitHoldsAcrossAReconnect(db, "follow_max_run", R"("max_run_seconds":4)", 4,
                               "max_run_seconds reached");
}

TEST_CASE("postgres: idle_exit_seconds holds across a reconnect forced by the server") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    limitHoldsAcrossAReconnect(db, "follow_idle_exit",
                               R"("idle_exit_seconds":3,"max_run_seconds":60)", 3,
                               "idle_exit_seconds reached");
}

TEST_CASE("mysql: idle_exit_seconds holds across a reconnect forced by the server") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    limitHoldsAcrossAReconnect(db, "follow_idle_exit",
                               R"("idle_exit_seconds":3,"max_run_seconds":60)", 3,
                               "idle_exit_seconds reached");
}

TEST_CASE("postgres: with notify_channel a commit wakes the following tap before its poll") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    notificationWakesTheTap(db, "follow_notify");
}

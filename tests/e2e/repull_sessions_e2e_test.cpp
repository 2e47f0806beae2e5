// A page's re-pulls shared between two sessions of a real server: the same records, in the
// same order, as one session; and a re-pull session the server ends leaves its shares to the
// run's own session, with nothing lost and no reconnect.
#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "dialect_fixture.hpp"
#include "tap_sessions.hpp"

using namespace tapdiffgen::testing;

namespace {

constexpr int kRowsPerTable = 9000;
constexpr int kBatch = 300;

// Two tables filled in turns of kBatch rows, so that a page of 600 events holds 300 keys of
// each: the first table is the run's own session's share, the second the other session's.
struct TakingTurns {
    JournalledSchema schema;
    std::string first;
    std::string second;

    TakingTurns(const DatabaseEnv& env, const std::string& prefix) : schema(env, prefix) {
        schema.createTable("first", "id INTEGER PRIMARY KEY, note VARCHAR(20)", "id");
        schema.createTable("second", "id INTEGER PRIMARY KEY, note VARCHAR(20)", "id");
        first = schema.table("first");
        second = schema.table("second");
        for (int from = 1; from <= kRowsPerTable; from += kBatch) {
            for (const std::string& table : {first, second}) {
                std::string values;
                for (int id = from; id < from + kBatch; ++id) {
                    values += (id > from ? ",(" : "(") + std::to_string(id) + ",'n" +
                              std::to_string(id) + "')";
                }
                schema.exec("INSERT INTO " + table + " VALUES " + values);
            }
        }
    }

    TapProcess start(const ScratchDir& dir, const std::string& extra) const {
        return TapProcess(
            {"--config", schema.writeConfig(dir, {first, second},
                                            R"("page_size":600,"max_page_size":600,)" + extra)});
    }
};

void sameOutputAsOneSession(const DatabaseEnv& env, const std::string& prefix) {
    TakingTurns tables(env, prefix);
    // Updates and deletes after the inserts: a row inserted in one page may be gone by the
    // time its page is re-pulled, and is a tombstone then, whichever session looked.
    tables.schema.exec("UPDATE " + tables.first + " SET note = 'u' WHERE id % 7 = 0");
    tables.schema.exec("DELETE FROM " + tables.second + " WHERE id % 11 = 0");
    ScratchDir dir;
    // A row gone since is deleted "now" (_sdc_deleted_at), which differs from run to run.
    const std::string common = R"("add_sdc_deleted_at":false,"log_level":"debug",)";
    TapRun one = tables.start(dir, common + R"("repull_sessions":1)").wait();
    TapRun two = tables.start(dir, common + R"("repull_sessions":2)").wait();
    REQUIRE_MESSAGE(one.exitCode == 0, one.stderrText);
    REQUIRE_MESSAGE(two.exitCode == 0, two.stderrText);
    CHECK(one.recordsAndStates().size() > static_cast<size_t>(2 * kRowsPerTable));
    CHECK(two.recordsAndStates() == one.recordsAndStates());
    CHECK(emittedIds(two, tables.second).size() == static_cast<size_t>(kRowsPerTable));
    CHECK(two.stderrText.find("re-pull shares on other sessions: ") != std::string::npos);
    CHECK(two.stderrText.find("re-pull shares on other sessions: 0 read there") ==
          std::string::npos);
    CHECK(two.stderrText.find(", 0 taken back") != std::string::npos);
}

void survivesALostRepullSession(const DatabaseEnv& env, const std::string& prefix) {
    TakingTurns tables(env, prefix);
    ScratchDir dir;
    // No read-ahead session: the tap's second session is the one that re-pulls.
    TapProcess process = tables.start(dir, R"("read_ahead":false)");
    int ended = 0;
    for (int attempt = 0; attempt < 1000 && ended == 0; ++attempt) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        ended = endNewestSessionOf(env, process.pid());
    }
    TapRun run = process.wait();
    REQUIRE_MESSAGE(ended > 0, "the tap finished before its re-pull session could be ended");
    CHECK_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(run.stderrText.find("re-pulling rows on another session failed (") != std::string::npos);
    CHECK(run.stderrText.find("); this session re-pulls every row itself") != std::string::npos);
    CHECK(run.stderrText.find("connection lost") == std::string::npos);
    CHECK(emittedIds(run, tables.first).size() == static_cast<size_t>(kRowsPerTable));
    CHECK(emittedIds(run, tables.second).size() == static_cast<size_t>(kRowsPerTable));
    CHECK(run.lastState().find("\"replication_key_value\":" + std::to_string(2 * kRowsPerTable)) !=
          std::string::npos);
}

}  // namespace

TEST_CASE("postgres: re-pulls shared with another session change no output") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    sameOutputAsOneSession(db, "repull_same");
}

TEST_CASE("mysql: re-pulls shared with another session change no output") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    sameOutputAsOneSession(db, "repull_same");
}

TEST_CASE("postgres: a lost re-pull session leaves its shares to the run's own, nothing lost") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    survivesALostRepullSession(db, "repull_loss");
}

TEST_CASE("mysql: a lost re-pull session leaves its shares to the run's own, nothing lost") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    survivesALostRepullSession(db, "repull_loss");
}

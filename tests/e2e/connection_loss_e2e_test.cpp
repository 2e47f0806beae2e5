// A real connection dropped mid-run: the server ends the tap's session (as a restart or a
// network cut would), and the tap reconnects with backoff and finishes without losing a row.
#include <doctest/doctest.h>

#include <chrono>
#include <thread>

#include "dialect_fixture.hpp"

using namespace tapdiffgen::testing;

namespace {

constexpr int kRows = 3000;

// Ends every server session whose current or last statement reads this test's diffgen table;
// returns how many it ended.
int endTapSessions(const DatabaseEnv& env, const std::string& diffgen) {
    if (env.dialect == "postgres") {
        auto ended = queryColumn(env,
                                 "SELECT count(pg_terminate_backend(pid)) FROM "
                                 "pg_stat_activity WHERE application_name = 'tap-diffgen' "
                                 "AND pid <> pg_backend_pid() AND query LIKE '%" +
                                     diffgen + "%'");
        return std::stoi(ended.at(0).value_or("0"));
    }
    auto ids = queryColumn(env,
                           "SELECT id FROM information_schema.PROCESSLIST WHERE id <> "
                           "CONNECTION_ID() AND INFO LIKE '%" +
                               diffgen + "%'");
    int ended = 0;
    for (const auto& id : ids) {
        try {
            exec(env, "KILL CONNECTION " + *id);
            ++ended;
        } catch (const std::runtime_error&) {
            // The session finished between the look-up and the kill.
        }
    }
    return ended;
}

void survivesADroppedConnection(const DatabaseEnv& env, const std::string& prefix) {
    JournalledSchema schema(env, prefix);
    const std::string table = schema.createNumberedItems(kRows);

    ScratchDir dir;
    // One event per page: thousands of statements, so the drop lands mid-run.
    const std::string config =
        schema.writeConfig(dir, {table}, R"("page_size":1,"reconnect_max_wait_seconds":1)");
    TapProcess process({"--config", config});
    int ended = 0;
    for (int attempt = 0; attempt < 500 && ended == 0; ++attempt) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        ended = endTapSessions(env, schema.diffgenTable());
    }
    TapRun run = process.wait();
    REQUIRE_MESSAGE(ended > 0, "the tap finished before its session could be ended");
    CHECK_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(run.stderrText.find("connection lost") != std::string::npos);
    CHECK(emittedIds(run, table).size() == static_cast<size_t>(kRows));
    CHECK(run.lastState().find("\"replication_key_value\":" + std::to_string(kRows)) !=
          std::string::npos);
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

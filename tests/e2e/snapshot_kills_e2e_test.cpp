// A 60,000-row table snapshotted in chunks of 200 while a writer changes it, and the tap
// interrupted at least ten times: SIGKILL at random points, and its sessions ended by the
// server in between. Each run resumes the snapshot after its last chunk; at the end the replica
// equals the table (support/snapshot_interruptions.hpp). The table is read at tens of
// thousands of rows a second, and a loaded machine may take tens of milliseconds to notice the
// output it waits for: three hundred chunks leave room for the interruptions while the test
// stays a few seconds long. The 200,000-row figures are the benchmark's
// (tests/bench/snapshot/run.sh).
#include <doctest/doctest.h>

#include "dialect_fixture.hpp"
#include "support/database_session.hpp"
#include "support/snapshot_interruptions.hpp"
#include "tap_sessions.hpp"

using namespace tapdiffgen::testing;

namespace {

constexpr int kRows = 60000;
constexpr int kChunkRows = 200;

std::string fillSql(const JournalledSchema& schema, const std::string& table) {
    return schema.isPostgres()
               ? "INSERT INTO " + table + " SELECT g, g, 'row ' || g FROM generate_series(1, " +
                     std::to_string(kRows) + ") g"
               : "INSERT INTO " + table + " SELECT seq, seq, CONCAT('row ', seq) FROM seq_1_to_" +
                     std::to_string(kRows);
}

void snapshotUnderFire(const DatabaseEnv& env, const std::string& prefix) {
    JournalledSchema schema(env, prefix);
    schema.createTable("big", "id INTEGER PRIMARY KEY, v INTEGER NOT NULL, note VARCHAR(40)", "id");
    const std::string table = schema.table("big");
    schema.exec(fillSql(schema, table));
    ScratchDir dir;
    const std::string config = dir.write(
        "config.json", env.configPrefix() + R"(,"diffgen_table":")" + schema.diffgenTable() +
                           R"(","tables":[{"table_name":")" + table +
                           R"(","pk_column":"id","start_from":"snapshot"}],"page_size":)" +
                           std::to_string(kChunkRows) + R"(,"max_page_size":)" +
                           std::to_string(kChunkRows) + R"(,"reconnect_max_wait_seconds":0})");
    InterruptedSnapshot setup;
    setup.stream = table;
    setup.table = table;
    setup.rows = kRows;
    setup.chunkRows = kChunkRows;
    setup.killDelayMs = 5;
    setup.openWriter = [&env] {
        auto session = std::make_shared<DatabaseSession>(env);
        return [session](const std::string& sql) { session->run(sql); };
    };
    setup.sourceRows = [&] {
        std::map<int64_t, int64_t> rows;
        const auto ids = queryColumn(env, "SELECT id FROM " + table + " ORDER BY id");
        const auto values = queryColumn(env, "SELECT v FROM " + table + " ORDER BY id");
        for (size_t i = 0; i < ids.size(); ++i) rows[std::stoll(*ids[i])] = std::stoll(*values[i]);
        return rows;
    };
    setup.tapArguments = [config](const std::string& statePath) {
        std::vector<std::string> arguments = {"--config", config};
        if (!statePath.empty()) arguments.insert(arguments.end(), {"--state", statePath});
        return arguments;
    };
    setup.endSessions = [&env](int pid) { return endSessionsOf(env, pid); };
    snapshotThroughInterruptions(setup);
}

}  // namespace

TEST_CASE("postgres: a snapshot killed and cut off again and again resumes and ends right") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    snapshotUnderFire(db, "snap_kill");
}

TEST_CASE("mysql: a snapshot killed and cut off again and again resumes and ends right") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    snapshotUnderFire(db, "snap_kill");
}

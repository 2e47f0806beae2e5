// Snapshots taken a chunk at a time beside the replay: a change to another stream reaches
// stdout while a big table is still being read (its latency printed); and a snapshot asked
// for in the log re-reads one table while the other streams' bookmarks keep moving, in a batch
// run and a following one, the replica equal to the tables at the end.
#include <doctest/doctest.h>

#include <Poco/JSON/Parser.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "dialect_fixture.hpp"
#include "support/database_session.hpp"

using namespace tapdiffgen::testing;

namespace {

using Clock = std::chrono::steady_clock;

// A hundred chunks of 200: the snapshot lasts long enough for a change to overtake it.
constexpr int kBigRows = 20000;
using Replica = std::map<std::string, std::map<int64_t, int64_t>>;  // stream → id → v

// A table of `rows` rows (id, v = id, note), journalled.
std::string numberedTable(JournalledSchema& schema, const std::string& name, int rows) {
    schema.createTable(name, "id INTEGER PRIMARY KEY, v INTEGER NOT NULL, note VARCHAR(40)", "id");
    const std::string table = schema.table(name);
    schema.exec(schema.isPostgres() ? "INSERT INTO " + table +
                                          " SELECT g, g, 'row ' || g FROM generate_series(1, " +
                                          std::to_string(rows) + ") g"
                                    : "INSERT INTO " + table +
                                          " SELECT seq, seq, CONCAT('row ', seq) FROM seq_1_to_" +
                                          std::to_string(rows));
    return table;
}

// Tables that start with a snapshot, the others from the log's beginning.
std::string configOf(const ScratchDir& dir, const JournalledSchema& schema,
                     const std::vector<std::string>& snapshotted,
                     const std::vector<std::string>& replayed, const std::string& extra) {
    std::string tables;
    for (const auto& table : snapshotted) {
        tables += std::string(tables.empty() ? "" : ",") + R"({"table_name":")" + table +
                  R"(","pk_column":"id","start_from":"snapshot"})";
    }
    for (const auto& table : replayed) {
        tables += std::string(tables.empty() ? "" : ",") + R"({"table_name":")" + table +
                  R"(","pk_column":"id"})";
    }
    return dir.write("config.json", schema.env().configPrefix() + R"(,"diffgen_table":")" +
                                        schema.diffgenTable() + R"(","tables":[)" + tables + "]," +
                                        extra + "}");
}

std::map<int64_t, int64_t> sourceOf(const DatabaseEnv& env, const std::string& table) {
    std::map<int64_t, int64_t> rows;
    const auto ids = queryColumn(env, "SELECT id FROM " + table + " ORDER BY id");
    const auto values = queryColumn(env, "SELECT v FROM " + table + " ORDER BY id");
    for (size_t i = 0; i < ids.size(); ++i) rows[std::stoll(*ids[i])] = std::stoll(*values[i]);
    return rows;
}

// Applies a run's records as a target would; returns its last STATE (or `state`).
std::string apply(const TapRun& run, Replica& replica, std::string state) {
    for (const auto& line : run.lines) {
        auto message = Poco::JSON::Parser().parse(line).extract<Poco::JSON::Object::Ptr>();
        const std::string type = message->getValue<std::string>("type");
        if (type == "STATE") {
            std::ostringstream value;
            message->getObject("value")->stringify(value);
            state = value.str();
        } else if (type == "RECORD") {
            auto record = message->getObject("record");
            auto& rows = replica[message->getValue<std::string>("stream")];
            if (record->getValue<bool>("is_deleted")) {
                rows.erase(record->getValue<int64_t>("id"));
            } else {
                rows[record->getValue<int64_t>("id")] = record->getValue<int64_t>("v");
            }
        }
    }
    return state;
}

// The bookmarks `stream` had in the STATEs that show `snapshotted`'s snapshot under way.
std::set<int64_t> bookmarksDuringSnapshot(const TapRun& run, const std::string& snapshotted,
                                          const std::string& stream) {
    std::set<int64_t> bookmarks;
    for (const auto& state : run.messages("STATE")) {
        auto all = state->getObject("value")->getObject("bookmarks");
        auto snapshot = all->getObject(snapshotted);
        if (!snapshot || !snapshot->has("snapshot") || !all->has(stream)) continue;
        bookmarks.insert(all->getObject(stream)->getValue<int64_t>("replication_key_value"));
    }
    return bookmarks;
}

std::string signalSql(const JournalledSchema& schema, const std::string& table) {
    return "INSERT INTO " + schema.diffgenTable() +
           " (tablename, table_id, op) VALUES ('tap-diffgen:snapshot', '" + table + "', 'i')";
}

std::string stateFile(const ScratchDir& dir, const std::string& state) {
    return dir.write("state.json", state);
}

void changeOfAnotherStreamFlowsDuringASnapshot(const DatabaseEnv& env) {
    JournalledSchema schema(env, "snap_mix");
    const std::string big = numberedTable(schema, "big", kBigRows);
    const std::string small = numberedTable(schema, "small", 1);
    ScratchDir dir;
    const std::string config =
        configOf(dir, schema, {big}, {small},
                 R"("page_size":200,"follow":true,"poll_interval_seconds":0.2,)"
                 R"("max_run_seconds":120)");
    TapProcess process({"--config", config});
    const std::string bigRecord = R"({"type":"RECORD","stream":")" + big + "\"";
    const auto deadline = Clock::now() + std::chrono::seconds(60);
    while (process.stdoutSoFar().find(bigRecord) == std::string::npos && Clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    // Read from here on only: the rows of the big table keep coming meanwhile.
    size_t seen = process.stdoutSize();
    schema.exec("INSERT INTO " + small + " VALUES (2, 2, 'during')");
    const auto committed = Clock::now();
    const std::string smallRecord = R"("stream":")" + small + R"(","record":{"id":2,)";
    bool arrived = false;
    while (!arrived && Clock::now() < deadline) {
        const std::string more = process.stdoutFrom(seen);
        const size_t lastLine = more.rfind('\n');
        arrived = more.find(smallRecord) != std::string::npos;
        if (lastLine != std::string::npos) seen += lastLine + 1;
        if (!arrived) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    const double latencyMs =
        std::chrono::duration<double, std::milli>(Clock::now() - committed).count();
    REQUIRE_MESSAGE(arrived, "the other stream's change never came");
    MESSAGE(env.dialect << ": the other stream's change reached stdout " << latencyMs
                        << " ms after its commit, during the snapshot");
    // Following, the run stays up once the snapshot is done: its last STATE tells.
    while (Clock::now() < deadline) {
        TapRun partial;
        partial.setOutput(process.stdoutSoFar(), "");
        const std::string last = partial.lastState();
        if (!last.empty() && last.find("snapshot") == std::string::npos) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    process.signal(SIGTERM);
    TapRun run = process.wait();
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    size_t changeAt = 0;
    size_t lastBigRow = 0;
    for (size_t i = 0; i < run.lines.size(); ++i) {
        if (run.lines[i].find(smallRecord) != std::string::npos) changeAt = i;
        if (run.lines[i].find(bigRecord) != std::string::npos) lastBigRow = i;
    }
    CHECK(changeAt > 0);
    CHECK(changeAt < lastBigRow);
    CHECK(run.records(big).size() == static_cast<size_t>(kBigRows));
}

// One table's replica is lost; a signal in the log has the tap read it again while the other
// table's changes replay, first in a batch run, then in a following one.
void backfillOneTable(const DatabaseEnv& env) {
    JournalledSchema schema(env, "snap_fill");
    const std::string lost = numberedTable(schema, "lost", 3000);
    const std::string other = numberedTable(schema, "other", 10);
    ScratchDir dir;
    const std::string batch = configOf(dir, schema, {lost, other}, {}, R"("page_size":100)");
    Replica replica;
    std::string state = apply(runTapBinary({"--config", batch}), replica, "");
    CHECK(replica[lost] == sourceOf(env, lost));

    SUBCASE("in a batch run") {
        replica[lost].clear();
        schema.exec("UPDATE " + lost + " SET v = v + 1 WHERE id <= 50");
        schema.exec(signalSql(schema, lost));
        DatabaseSession writer(env);
        for (int id = 11; id <= 400; ++id) {
            writer.run("INSERT INTO " + other + " VALUES (" + std::to_string(id) + ", 0, 'n')");
        }
        TapRun run = runTapBinary({"--config", batch, "--state", stateFile(dir, state)});
        REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
        CHECK(run.stderrText.find("asks for a snapshot") != std::string::npos);
        apply(run, replica, state);
        CHECK(bookmarksDuringSnapshot(run, lost, other).size() >= 2);
        CHECK(replica[lost] == sourceOf(env, lost));
        CHECK(replica[other] == sourceOf(env, other));
    }

    SUBCASE("in a following run") {
        const std::string follow =
            configOf(dir, schema, {lost, other}, {},
                     R"("page_size":100,"follow":true,"poll_interval_seconds":0.1,)"
                     R"("max_run_seconds":60)");
        TapProcess process({"--config", follow, "--state", stateFile(dir, state)});
        std::atomic<bool> stop{false};
        std::thread changes([&] {
            DatabaseSession writer(env);
            for (int id = 11; !stop; ++id) {
                writer.run("INSERT INTO " + other + " VALUES (" + std::to_string(id) + ", 0, 'n')");
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
            }
        });
        // A failed assertion below leaves the test by an exception: the writer stops and is
        // joined all the same, so the failure is reported instead of aborting the process.
        struct StopWriter {
            std::atomic<bool>& stop;
            std::thread& writer;
            ~StopWriter() {
                stop = true;
                if (writer.joinable()) writer.join();
            }
        } stopWriter{stop, changes};
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        replica[lost].clear();
        schema.exec(signalSql(schema, lost));
        const auto deadline = Clock::now() + std::chrono::seconds(40);
        bool done = false;
        while (!done && Clock::now() < deadline) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            TapRun partial;
            partial.setOutput(process.stdoutSoFar(), "");
            done = !bookmarksDuringSnapshot(partial, lost, other).empty() &&
                   partial.lastState().find("snapshot") == std::string::npos;
        }
        stop = true;
        changes.join();
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        process.signal(SIGTERM);
        TapRun run = process.wait();
        REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
        REQUIRE(done);
        apply(run, replica, state);
        CHECK(bookmarksDuringSnapshot(run, lost, other).size() >= 2);
        CHECK(replica[lost] == sourceOf(env, lost));
        CHECK(replica[other] == sourceOf(env, other));
    }
}

}  // namespace

TEST_CASE("postgres: another stream's change reaches stdout while a big table snapshots") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    changeOfAnotherStreamFlowsDuringASnapshot(db);
}

TEST_CASE("mysql: another stream's change reaches stdout while a big table snapshots") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    changeOfAnotherStreamFlowsDuringASnapshot(db);
}

TEST_CASE("postgres: a signal in the log snapshots one table again, the others replay") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    backfillOneTable(db);
}

TEST_CASE("mysql: a signal in the log snapshots one table again, the others replay") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    backfillOneTable(db);
}

// Soak: three writers commit, roll back and hold transactions open across the tap's page reads
// while the tap is run again and again and killed at random points, each run resuming from the
// last whole STATE of the one before. A replica rebuilt from everything the tap wrote must equal
// the source table at the end. Bounded: about 30 seconds per database.
#include <doctest/doctest.h>

#include <signal.h>

#include <atomic>
#include <chrono>
#include <map>
#include <random>
#include <thread>

#include "dialect_fixture.hpp"
#include "support/database_session.hpp"

using namespace tapdiffgen::testing;

namespace {

constexpr int kKeys = 40;
constexpr auto kWriteFor = std::chrono::seconds(25);

std::string randomChange(const std::string& table, std::mt19937& random, unsigned seed,
                         bool postgres) {
    std::string id = std::to_string(random() % kKeys + 1);
    std::string note = "'w" + std::to_string(seed) + "-" + std::to_string(random() % 1000) + "'";
    switch (random() % 3) {
        case 0:
            return "DELETE FROM " + table + " WHERE id = " + id;
        case 1:
            return "UPDATE " + table + " SET note = " + note + " WHERE id = " + id;
        default:
            return postgres ? "INSERT INTO " + table + " VALUES (" + id + ", " + note +
                                  ") ON CONFLICT (id) DO UPDATE SET note = EXCLUDED.note"
                            : "INSERT INTO " + table + " VALUES (" + id + ", " + note +
                                  ") ON DUPLICATE KEY UPDATE note = VALUES(note)";
    }
}

struct WriterCounts {
    std::atomic<int> commits{0};
    std::atomic<int> rollbacks{0};
    std::atomic<int> held{0};  // kept open 0.5–2 s, across the tap's page reads
};

// One writer: transactions of 1–4 changes, 20% rolled back, 5% held open for 0.5–2 s before
// they end, until told to stop.
void write(const DatabaseEnv& env, const std::string& table, unsigned seed,
           const std::atomic<bool>& stop, WriterCounts& counts) {
    DatabaseSession session(env);
    std::mt19937 random(seed);
    const bool postgres = env.dialect == "postgres";
    while (!stop) {
        try {
            session.run("BEGIN");
            int changes = static_cast<int>(random() % 4) + 1;
            for (int i = 0; i < changes; ++i)
                session.run(randomChange(table, random, seed, postgres));
            if (random() % 20 == 0) {
                ++counts.held;
                std::this_thread::sleep_for(std::chrono::milliseconds(500 + random() % 1500));
            } else {
                std::this_thread::sleep_for(std::chrono::milliseconds(random() % 15));
            }
            if (random() % 5 == 0) {
                session.run("ROLLBACK");
                ++counts.rollbacks;
            } else {
                session.run("COMMIT");
                ++counts.commits;
            }
        } catch (const std::runtime_error&) {
            // Writers touch the same rows in different orders: a deadlock victim rolls back,
            // as an application would.
            session.run("ROLLBACK");
            ++counts.rollbacks;
        }
    }
}

// Applies every complete line of a run to the replica; returns the last STATE value (or the
// previous one when the run wrote none).
std::string apply(const TapRun& run, const std::string& stream, std::map<int, std::string>& replica,
                  std::string state) {
    const auto upsertOrDelete = [&](const Poco::JSON::Object::Ptr& record) {
        const int id = record->getValue<int>("id");
        if (record->getValue<bool>("is_deleted")) {
            replica.erase(id);
        } else {
            replica[id] = record->isNull("note") ? "NULL" : record->getValue<std::string>("note");
        }
    };
    return run.applyAsTarget(stream, upsertOrDelete, std::move(state));
}

void soak(const DatabaseEnv& env, const std::string& prefix, const std::string& label) {
    JournalledSchema schema(env, prefix);
    schema.createTable("items", "id INTEGER PRIMARY KEY, note VARCHAR(40)", "id");
    const std::string table = schema.table("items");
    ScratchDir dir;
    const std::string config = schema.writeConfig(
        dir, {table},
        R"("page_size":7,"max_page_size":7,"horizon_wait_seconds":2,"horizon_settle_seconds":1)");

    std::atomic<bool> stop{false};
    WriterCounts counts;
    std::vector<std::thread> writers;
    for (unsigned seed = 1; seed <= 3; ++seed) {
        writers.emplace_back(write, std::cref(env), table, seed, std::cref(stop), std::ref(counts));
    }

    std::map<int, std::string> replica;
    std::string state;
    std::mt19937 random(7);
    int runs = 0;
    int kills = 0;
    const auto until = std::chrono::steady_clock::now() + kWriteFor;
    while (std::chrono::steady_clock::now() < until) {
        std::vector<std::string> args = {"--config", config};
        if (!state.empty()) {
            args.push_back("--state");
            args.push_back(dir.write("state.json", state));
        }
        TapProcess process(args);
        // Kill at a random point, or ask it to stop (it would otherwise chase the writers).
        std::this_thread::sleep_for(std::chrono::milliseconds(random() % 600));
        const bool kill = random() % 4 != 0;
        process.signal(kill ? SIGKILL : SIGTERM);
        TapRun run = process.wait();
        kills += kill ? 1 : 0;
        state = apply(run, table, replica, state);
        ++runs;
    }
    stop = true;
    for (auto& writer : writers) writer.join();

    // The writers are done: two complete runs drain the log and settle every gap.
    for (int i = 0; i < 2; ++i) {
        std::vector<std::string> args = {"--config", config};
        if (!state.empty()) {
            args.push_back("--state");
            args.push_back(dir.write("state.json", state));
        }
        TapRun run = runTapBinary(args);
        REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
        state = apply(run, table, replica, state);
    }

    std::map<int, std::string> source;
    auto ids = queryColumn(env, "SELECT id FROM " + table + " ORDER BY id");
    auto notes = queryColumn(env, "SELECT note FROM " + table + " ORDER BY id");
    for (size_t i = 0; i < ids.size(); ++i) source[std::stoi(*ids[i])] = notes[i].value_or("NULL");
    int differing = 0;
    for (const auto& [id, note] : source) {
        auto found = replica.find(id);
        differing += found == replica.end() || found->second != note ? 1 : 0;
    }
    for (const auto& [id, note] : replica) differing += source.count(id) == 0 ? 1 : 0;
    MESSAGE(label << ": " << counts.commits.load() << " commits, " << counts.rollbacks.load()
                  << " rollbacks, " << counts.held.load() << " held open, " << runs << " tap runs, "
                  << kills << " killed with SIGKILL, " << source.size() << " rows compared, "
                  << differing << " differ");
    CHECK(counts.commits.load() > 50);
    CHECK(counts.rollbacks.load() > 5);
    CHECK(counts.held.load() > 3);
    CHECK(kills > 10);
    for (const auto& [id, note] : source) {
        auto found = replica.find(id);
        CHECK_MESSAGE(found != replica.end(), "row " << id << " missing from the replica");
        if (found != replica.end()) CHECK_MESSAGE(found->second == note, "row " << id);
    }
    for (const auto& [id, note] : replica) {
        CHECK_MESSAGE(source.count(id) == 1,
                      "row " << id << " (" << note << ") deleted at the source");
    }
}

}  // namespace

TEST_CASE("postgres: soak with concurrent writers and random kills loses nothing") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    soak(db, "soak", "postgres");
}

TEST_CASE("mysql: soak with concurrent writers and random kills loses nothing") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    soak(db, "soak", "mysql (server clock west of UTC)");
}

TEST_CASE("mysql: soak on a server whose clock runs east of UTC loses nothing") {
    TDG_REQUIRE_DATABASE(db, mysqlEastEnv());
    soak(db, "soak", "mysql (server clock east of UTC)");
}

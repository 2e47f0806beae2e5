// follow on SQLite, which has no notifications: the tap polls the file and emits the changes
// that another connection commits after the run started, then stops on SIGTERM.
#include <doctest/doctest.h>

#include <chrono>
#include <csignal>
#include <fstream>
#include <sstream>
#include <thread>

#include "sqlite_test_support.hpp"
#include "support/sqlite_journal.hpp"

using namespace tapdiffgen;
using namespace tapdiffgen::sqlitetest;

namespace {

std::string readFile(const std::string& path) {
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

bool waitFor(const testing::TapProcess& process, const std::string& fragment) {
    for (int i = 0; i < 400; ++i) {
        if (process.stdoutSoFar().find(fragment) != std::string::npos) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
}

}  // namespace

TEST_CASE("sqlite: follow polls the file and emits changes committed after the start") {
    TempDatabase db;
    db.exec(readFile(TDG_SQLITE_DIFFGEN_SQL));
    db.exec("CREATE TABLE items (id INTEGER PRIMARY KEY, note TEXT)");
    testing::journalSqliteTable(db.path(), "items");
    db.exec("INSERT INTO items VALUES (1, 'before')");
    testing::ScratchDir dir;
    const std::string configPath = dir.write(
        "config.json", R"({"sql_dialect":"sqlite","database":")" + db.path() +
                           R"(","tables":[{"table_name":"items","pk_column":"id"}],)"
                           R"("follow":true,"poll_interval_seconds":0.2,"max_run_seconds":60})");
    testing::TapProcess process({"--config", configPath});
    REQUIRE(waitFor(process, R"("replication_key_value":1)"));

    // The tap polls the file with reads that hold a shared lock for a moment: the commit waits
    // them out, as an application's writer beside a reader must.
    Writer writer(db.path(), std::chrono::seconds(10));
    writer.exec("INSERT INTO items VALUES (2, 'later'); UPDATE items SET note = 'x' WHERE id = 1");
    CHECK(waitFor(process, R"("replication_key_value":3)"));
    process.signal(SIGTERM);
    testing::TapRun run = process.wait();
    CHECK_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(run.stderrText.find("(stopped by SIGTERM)") != std::string::npos);
    int later = 0;
    int updates = 0;
    for (const auto& record : run.records("items")) {
        if (record->getValue<int>("id") == 2) ++later;
        if (record->getValue<int>("id") == 1 && record->getValue<std::string>("note") == "x") {
            ++updates;
        }
    }
    CHECK(later == 1);
    CHECK(updates == 1);
    CHECK(run.lastState().find(R"("replication_key_value":3)") != std::string::npos);
}

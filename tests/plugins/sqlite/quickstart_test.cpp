// The quickstart's demo end to end (what packaging/quickstart/run.sh does after installing and
// building): demo.sql, its tables journalled by the triggers the pattern's view writes, and the
// change scripts applied by the sqlite3 shell, the built tap run
// with the quickstart's own config.json, first from scratch, then from the first run's state.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "sqlite_cli.hpp"
#include "support/sqlite_journal.hpp"
#include "support/tap_process.hpp"

using namespace tapdiffgen::testing;

namespace {

const std::string kSource = TDG_SOURCE_DIR;
const std::string kQuickstart = kSource + "/packaging/quickstart";

// Feeds `script` to the sqlite3 shell from the source root, where demo.sql's .read resolves.
int applyFromSourceRoot(const std::string& database, const std::string& script) {
    return tapdiffgen::testing::applySql(database, script, kSource);
}

// demo.sql, and its two tables journalled as run.sh journals them.
void createDemo(const std::string& database) {
    REQUIRE(applyFromSourceRoot(database, kQuickstart + "/demo.sql") == 0);
    journalSqliteTable(database, "customers");
    journalSqliteTable(database, "invoices");
}

// "<id>+" for a live row, "<id>-" for a tombstone, sorted.
std::vector<std::string> changesOf(const TapRun& run, const std::string& stream) {
    std::vector<std::string> changes;
    for (const auto& record : run.records(stream)) {
        changes.push_back(record->get("id").toString() +
                          (record->getValue<bool>("is_deleted") ? "-" : "+"));
    }
    std::sort(changes.begin(), changes.end());
    return changes;
}

bool anyLineHas(const TapRun& run, const std::string& fragment) {
    return std::any_of(run.lines.begin(), run.lines.end(), [&](const std::string& line) {
        return line.find(fragment) != std::string::npos;
    });
}

}  // namespace

TEST_CASE(
    "quickstart: the first run sends both tables with a tombstone, the second only "
    "changes-2.sql") {
    ScratchDir work;
    // config.json names the database relative to the working directory, as run.sh uses it.
    std::filesystem::create_directories(work.path() + "/build/quickstart");
    const std::string database = work.path() + "/build/quickstart/demo.db";
    const std::string config = kQuickstart + "/config.json";
    createDemo(database);
    REQUIRE(applyFromSourceRoot(database, kQuickstart + "/changes-1.sql") == 0);

    TapRun first = runTapBinary({"--config", config}, work.path());
    REQUIRE_MESSAGE(first.exitCode == 0, first.stderrText);
    CHECK(changesOf(first, "customers") == std::vector<std::string>{"1+", "2+", "3+", "4+"});
    CHECK(changesOf(first, "invoices") == std::vector<std::string>{"101+", "102+", "103-", "104+"});
    CHECK(anyLineHas(first, R"("amount":1250.00,"issued":"2024-05-01","paid":true,)"));
    CHECK(anyLineHas(first, R"("email":"grace.hopper@example.com","vip":true)"));
    CHECK(anyLineHas(first, R"("created_at":"2024-05-06T10:00:00.000000+00:00")"));
    REQUIRE_FALSE(first.lastState().empty());

    std::string state = work.write("state.json", first.lastState());
    REQUIRE(applyFromSourceRoot(database, kQuickstart + "/changes-2.sql") == 0);
    TapRun second = runTapBinary({"--config", config, "--state", state}, work.path());
    REQUIRE_MESSAGE(second.exitCode == 0, second.stderrText);
    CHECK(changesOf(second, "customers") == std::vector<std::string>{"2+"});
    CHECK(changesOf(second, "invoices") == std::vector<std::string>{"102-", "105+"});
    CHECK(second.messages("RECORD").size() == 3);
    CHECK(anyLineHas(second, R"("name":"Alan M. Turing")"));
    CHECK(anyLineHas(second, R"("amount":19.99,)"));

    TapRun third =
        runTapBinary({"--config", config, "--state", work.write("state2.json", second.lastState())},
                     work.path());
    REQUIRE_MESSAGE(third.exitCode == 0, third.stderrText);
    CHECK(third.messages("RECORD").empty());
}

TEST_CASE("quickstart: a gap left by pruned diffgen rows is final at once, with no settle wait") {
    ScratchDir work;
    std::filesystem::create_directories(work.path() + "/build/quickstart");
    const std::string database = work.path() + "/build/quickstart/demo.db";
    createDemo(database);
    REQUIRE(applyFromSourceRoot(database, kQuickstart + "/changes-1.sql") == 0);
    REQUIRE(applyFromSourceRoot(
                database, work.write("prune.sql", "DELETE FROM diffgen WHERE id IN (2, 5);")) == 0);

    auto started = std::chrono::steady_clock::now();
    TapRun run = runTapBinary({"--config", kQuickstart + "/config.json"}, work.path());
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK_MESSAGE(seconds < 5.0, run.stderrText);  // horizon_settle_seconds is 10 by default
    CHECK(run.stderrText.find("cannot tell") == std::string::npos);
    CHECK(run.lastState().find(R"("replication_key_value":11)") != std::string::npos);
}

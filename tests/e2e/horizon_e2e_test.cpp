// No change is lost to a transaction that commits late: the bookmark never passes a diffgen id
// that a running transaction still holds, and an id that will never appear (rolled back) stops
// holding it once no older transaction runs.
#include <doctest/doctest.h>

#include "dialect_fixture.hpp"
#include "support/held_transaction.hpp"

using namespace tapdiffgen::testing;

namespace {

// The last STATE's bookmark for `stream`; the run must have written one.
int64_t bookmarkOf(const TapRun& run, const std::string& stream) {
    std::optional<int64_t> bookmark = run.lastBookmark(stream);
    REQUIRE(bookmark.has_value());
    return *bookmark;
}

bool emitted(const TapRun& run, const std::string& stream, int id) {
    for (const auto& record : run.records(stream)) {
        if (record->getValue<int>("id") == id) return true;
    }
    return false;
}

void heldTransactionCommitsAfterTheRun(const DatabaseEnv& env, const std::string& prefix) {
    JournalledSchema schema(env, prefix);
    schema.createTable("invoices", "id INTEGER PRIMARY KEY, note VARCHAR(20)", "id");
    const std::string invoices = schema.table("invoices");
    schema.exec("INSERT INTO " + invoices + " VALUES (1, 'before')");

    // Takes diffgen id 2 and stays open; id 3 commits meanwhile.
    HeldTransaction held(env, "INSERT INTO " + invoices + " VALUES (2, 'held')");
    schema.exec("INSERT INTO " + invoices + " VALUES (3, 'after')");

    ScratchDir dir;
    std::string config = schema.writeConfig(dir, {invoices}, R"("horizon_wait_seconds":1)");
    TapRun first = runTapBinary({"--config", config});
    REQUIRE_MESSAGE(first.exitCode == 0, first.stderrText);
    CHECK(emitted(first, invoices, 1));
    CHECK(emitted(first, invoices, 3));
    CHECK_FALSE(emitted(first, invoices, 2));
    CHECK(bookmarkOf(first, invoices) < 2);

    held.commit();
    TapRun second =
        runTapBinary({"--config", config, "--state", dir.write("state.json", first.lastState())});
    REQUIRE_MESSAGE(second.exitCode == 0, second.stderrText);
    CHECK(emitted(second, invoices, 2));
    CHECK(bookmarkOf(second, invoices) == 3);
}

void rolledBackIdDoesNotStall(const DatabaseEnv& env, const std::string& prefix) {
    JournalledSchema schema(env, prefix);
    schema.createTable("invoices", "id INTEGER PRIMARY KEY, note VARCHAR(20)", "id");
    const std::string invoices = schema.table("invoices");
    schema.exec("INSERT INTO " + invoices + " VALUES (1, 'before')");
    {
        HeldTransaction gone(env, "INSERT INTO " + invoices + " VALUES (2, 'rolled back')");
        gone.rollback();
    }
    schema.exec("INSERT INTO " + invoices + " VALUES (3, 'after')");

    ScratchDir dir;
    TapRun run = runTapBinary({"--config", schema.writeConfig(dir, {invoices})});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(emitted(run, invoices, 3));
    CHECK_FALSE(emitted(run, invoices, 2));
    // The gap at id 2 is final once no transaction older than it runs: the bookmark passes it.
    CHECK(bookmarkOf(run, invoices) == 3);
}

}  // namespace

TEST_CASE("postgres: a held transaction's change is emitted by the next run") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    heldTransactionCommitsAfterTheRun(db, "hz_held");
}
TEST_CASE("mysql: a held transaction's change is emitted by the next run") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    heldTransactionCommitsAfterTheRun(db, "hz_held");
}
TEST_CASE("mysql: a held transaction's change is emitted, server clock east of UTC") {
    TDG_REQUIRE_DATABASE(db, mysqlEastEnv());
    heldTransactionCommitsAfterTheRun(db, "hz_held");
}
TEST_CASE("postgres: a rolled-back id does not stall the bookmark") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    rolledBackIdDoesNotStall(db, "hz_rollback");
}
TEST_CASE("mysql: a rolled-back id does not stall the bookmark") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    rolledBackIdDoesNotStall(db, "hz_rollback");
}
TEST_CASE("mysql: a rolled-back id does not stall the bookmark, server clock east of UTC") {
    TDG_REQUIRE_DATABASE(db, mysqlEastEnv());
    rolledBackIdDoesNotStall(db, "hz_rollback");
}

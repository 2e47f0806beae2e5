// The real binary against real PostgreSQL and MariaDB: first run, resume, new changes with
// deletes, a table added later, tombstones_only, snapshot start, and a replica rebuilt from
// the output that equals the source.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>

#include "dialect_fixture.hpp"

using namespace tapdiffgen::testing;

namespace {

const char* kInvoiceColumns = "id INTEGER PRIMARY KEY, amount NUMERIC(12,2), note VARCHAR(100)";

std::vector<std::string> keysOf(const std::vector<Poco::JSON::Object::Ptr>& records,
                                const std::string& key) {
    std::vector<std::string> keys;
    for (const auto& record : records) {
        keys.push_back(record->get(key).toString() +
                       (record->getValue<bool>("is_deleted") ? "-" : "+"));
    }
    std::sort(keys.begin(), keys.end());
    return keys;
}

std::string stateFile(const ScratchDir& dir, const TapRun& run) {
    return dir.write("state.json", run.lastState());
}

void firstRunResumeAndNewChanges(const DatabaseEnv& env, const std::string& prefix) {
    JournalledSchema schema(env, prefix);
    schema.createTable("invoices", kInvoiceColumns, "id");
    const std::string invoices = schema.table("invoices");
    schema.exec("INSERT INTO " + invoices + " VALUES (1, 10.50, 'one'), (2, 20.00, 'two'), " +
                "(3, 30.25, NULL)");
    schema.exec("UPDATE " + invoices + " SET note = 'uno' WHERE id = 1");
    schema.exec("DELETE FROM " + invoices + " WHERE id = 2");

    ScratchDir dir;
    std::string config = schema.writeConfig(dir, {invoices});
    TapRun first = runTapBinary({"--config", config});
    REQUIRE_MESSAGE(first.exitCode == 0, first.stderrText);
    CHECK(keysOf(first.records(invoices), "id") == std::vector<std::string>{"1+", "2-", "3+"});
    bool exactDecimal = false;
    for (const auto& line : first.lines) {
        exactDecimal =
            exactDecimal || line.find(R"("amount":10.50,"note":"uno")") != std::string::npos;
    }
    CHECK_MESSAGE(exactDecimal, "numeric(12,2) keeps its scale");
    auto schemaMessage = first.messages("SCHEMA").at(0);
    CHECK(schemaMessage->getArray("key_properties")->getElement<std::string>(0) == "id");
    CHECK(first.lastState().find(R"("replication_key_value":5)") != std::string::npos);

    TapRun again = runTapBinary({"--config", config, "--state", stateFile(dir, first)});
    REQUIRE_MESSAGE(again.exitCode == 0, again.stderrText);
    CHECK(again.records(invoices).empty());
    CHECK(again.lastState() == first.lastState());

    schema.exec("INSERT INTO " + invoices + " VALUES (4, 1.00, 'four')");
    schema.exec("DELETE FROM " + invoices + " WHERE id = 3");
    TapRun third = runTapBinary({"--config", config, "--state", stateFile(dir, again)});
    REQUIRE_MESSAGE(third.exitCode == 0, third.stderrText);
    CHECK(keysOf(third.records(invoices), "id") == std::vector<std::string>{"3-", "4+"});
    auto tombstone = third.records(invoices);
    for (const auto& record : tombstone) {
        if (record->getValue<bool>("is_deleted")) {
            CHECK(record->isNull("amount"));
            CHECK(record->isNull("note"));
            CHECK_FALSE(record->isNull("_sdc_deleted_at"));
        }
    }
}

void tableAddedLaterCatchesUp(const DatabaseEnv& env, const std::string& prefix) {
    JournalledSchema schema(env, prefix);
    schema.createTable("invoices", kInvoiceColumns, "id");
    schema.createTable("customers", "code VARCHAR(20) PRIMARY KEY, name VARCHAR(50)", "code");
    const std::string invoices = schema.table("invoices");
    const std::string customers = schema.table("customers");
    schema.exec("INSERT INTO " + customers + " VALUES ('c1', 'Ada'), ('c2', 'Bob')");
    schema.exec("INSERT INTO " + invoices + " VALUES (1, 1.00, 'a')");
    schema.exec("DELETE FROM " + customers + " WHERE code = 'c2'");

    ScratchDir dir;
    TapRun first = runTapBinary({"--config", schema.writeConfig(dir, {invoices})});
    REQUIRE_MESSAGE(first.exitCode == 0, first.stderrText);
    CHECK(first.records(invoices).size() == 1);

    schema.exec("INSERT INTO " + invoices + " VALUES (2, 2.00, 'b')");
    TapRun both = runTapBinary({"--config", schema.writeConfig(dir, {invoices, customers}),
                                "--state", stateFile(dir, first)});
    REQUIRE_MESSAGE(both.exitCode == 0, both.stderrText);
    CHECK(keysOf(both.records(invoices), "id") == std::vector<std::string>{"2+"});
    // c2 is emitted gone by the catch-up page and again by its delete event in the shared page:
    // both are tombstones, and what a target ends up with is c1 alone.
    auto customerKeys = keysOf(both.records(customers), "code");
    CHECK(std::set<std::string>(customerKeys.begin(), customerKeys.end()) ==
          std::set<std::string>{"c1+", "c2-"});
    CHECK(replicaOf(both.records(customers), "code").size() == 1);
    auto state = both.lastState();
    CHECK(state.find(invoices) != std::string::npos);
    CHECK(state.find(customers) != std::string::npos);
}

void tombstonesOnlyAndSnapshot(const DatabaseEnv& env, const std::string& prefix) {
    JournalledSchema schema(env, prefix);
    schema.createTable("invoices", kInvoiceColumns, "id");
    const std::string invoices = schema.table("invoices");
    schema.exec("INSERT INTO " + invoices + " VALUES (1, 1.00, 'a'), (2, 2.00, 'b')");
    schema.exec("DELETE FROM " + invoices + " WHERE id = 1");

    ScratchDir dir;
    std::string tombstonesConfig = dir.write(
        "tombstones.json", env.configPrefix() + R"(,"diffgen_table":")" + schema.diffgenTable() +
                               R"(","tables":[{"table_name":")" + invoices +
                               R"(","pk_column":"id","mode":"tombstones_only"}]})");
    TapRun tombstones = runTapBinary({"--config", tombstonesConfig});
    REQUIRE_MESSAGE(tombstones.exitCode == 0, tombstones.stderrText);
    CHECK(keysOf(tombstones.records(invoices), "id") == std::vector<std::string>{"1-"});

    std::string snapshotConfig = dir.write(
        "snapshot.json", env.configPrefix() + R"(,"diffgen_table":")" + schema.diffgenTable() +
                             R"(","tables":[{"table_name":")" + invoices +
                             R"(","pk_column":"id","start_from":"snapshot"}]})");
    TapRun snapshot = runTapBinary({"--config", snapshotConfig});
    REQUIRE_MESSAGE(snapshot.exitCode == 0, snapshot.stderrText);
    CHECK(keysOf(snapshot.records(invoices), "id") == std::vector<std::string>{"2+"});
    CHECK(snapshot.lastState().find(R"("replication_key_value":3)") != std::string::npos);
}

void replicaEqualsSource(const DatabaseEnv& env, const std::string& prefix) {
    JournalledSchema schema(env, prefix);
    schema.createTable("invoices", kInvoiceColumns, "id");
    const std::string invoices = schema.table("invoices");
    ScratchDir dir;
    std::string config = schema.writeConfig(dir, {invoices}, R"("page_size":7)");
    std::mt19937 random(42);
    std::vector<Poco::JSON::Object::Ptr> all;
    std::string state;
    for (int round = 0; round < 4; ++round) {
        std::string batch;
        for (int change = 0; change < 40; ++change) {
            int id = static_cast<int>(random() % 25) + 1;
            int what = static_cast<int>(random() % 3);
            std::string value =
                std::to_string(random() % 100000) + "." + std::to_string(random() % 90 + 10);
            if (what == 0) {
                schema.exec("DELETE FROM " + invoices + " WHERE id = " + std::to_string(id));
            } else if (what == 1) {
                schema.exec("UPDATE " + invoices + " SET amount = " + value + ", note = 'r" +
                            std::to_string(round) + "' WHERE id = " + std::to_string(id));
            } else {
                schema.exec("DELETE FROM " + invoices + " WHERE id = " + std::to_string(id));
                schema.exec("INSERT INTO " + invoices + " VALUES (" + std::to_string(id) + ", " +
                            value + ", 'n" + std::to_string(change) + "')");
            }
        }
        std::vector<std::string> args = {"--config", config};
        if (!state.empty()) {
            args.push_back("--state");
            args.push_back(dir.write("state.json", state));
        }
        TapRun run = runTapBinary(args);
        REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
        auto records = run.records(invoices);
        all.insert(all.end(), records.begin(), records.end());
        state = run.lastState();
    }
    auto replica = replicaOf(all, "id");

    std::set<std::string> sourceKeys;
    for (const auto& key : queryColumn(env, "SELECT id FROM " + invoices)) sourceKeys.insert(*key);
    std::set<std::string> replicaKeys;
    for (const auto& [key, row] : replica) replicaKeys.insert(key);
    CHECK(replicaKeys == sourceKeys);

    // The same rows read by a snapshot (another code path: a table scan) match value for value.
    std::string snapshotConfig = dir.write(
        "snapshot.json", env.configPrefix() + R"(,"diffgen_table":")" + schema.diffgenTable() +
                             R"(","tables":[{"table_name":")" + invoices +
                             R"(","pk_column":"id","start_from":"snapshot"}]})");
    TapRun snapshot =
        runTapBinary({"--config", snapshotConfig, "--state", dir.write("empty.json", "{}")});
    REQUIRE_MESSAGE(snapshot.exitCode == 0, snapshot.stderrText);
    CHECK(replicaOf(snapshot.records(invoices), "id") == replica);
}

}  // namespace

TEST_CASE("postgres: first run, resume with state, new changes with deletes") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    firstRunResumeAndNewChanges(db, "e2e_first");
}
TEST_CASE("mysql: first run, resume with state, new changes with deletes") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    firstRunResumeAndNewChanges(db, "e2e_first");
}
TEST_CASE("postgres: a table added later catches up, then joins the shared scan") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    tableAddedLaterCatchesUp(db, "e2e_added");
}
TEST_CASE("mysql: a table added later catches up, then joins the shared scan") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    tableAddedLaterCatchesUp(db, "e2e_added");
}
TEST_CASE("postgres: tombstones_only and snapshot start") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    tombstonesOnlyAndSnapshot(db, "e2e_modes");
}
TEST_CASE("mysql: tombstones_only and snapshot start") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    tombstonesOnlyAndSnapshot(db, "e2e_modes");
}
TEST_CASE("postgres: a replica rebuilt from the output equals the source") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    replicaEqualsSource(db, "e2e_replica");
}
TEST_CASE("mysql: a replica rebuilt from the output equals the source") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    replicaEqualsSource(db, "e2e_replica");
}

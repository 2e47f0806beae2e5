// Tables keyed by two columns, journalled by the documented triggers: diffgen.table_id holds the
// key as a JSON array, and every record, tombstone and STATE is what a one-column key gets.
#include <doctest/doctest.h>

#include <signal.h>

#include <chrono>
#include <map>
#include <random>
#include <thread>

#include "dialect_fixture.hpp"

using namespace tapdiffgen::testing;

namespace {

using Key = std::pair<int, std::string>;  // (order_id, line_no)
using Replica = std::map<Key, std::string>;

Key keyOf(const Poco::JSON::Object::Ptr& record) {
    return {record->getValue<int>("order_id"), record->getValue<std::string>("line_no")};
}

std::string valueOf(const Poco::JSON::Object::Ptr& record) {
    return (record->isNull("qty") ? "NULL" : record->get("qty").toString()) + "/" +
           (record->isNull("note") ? "NULL" : record->getValue<std::string>("note"));
}

// Applies every complete line; returns the last STATE value (or `state` when none came).
std::string apply(const TapRun& run, const std::string& stream, Replica& replica,
                  std::string state) {
    const auto upsertOrDelete = [&](const Poco::JSON::Object::Ptr& record) {
        if (record->getValue<bool>("is_deleted")) {
            replica.erase(keyOf(record));
        } else {
            replica[keyOf(record)] = valueOf(record);
        }
    };
    return run.applyAsTarget(stream, upsertOrDelete, std::move(state));
}

Replica sourceOf(const JournalledSchema& schema, const std::string& table) {
    const std::string from = " FROM " + table + " ORDER BY order_id, line_no";
    auto ids = queryColumn(schema.env(), "SELECT order_id" + from);
    auto lines = queryColumn(schema.env(), "SELECT line_no" + from);
    const std::string qtyText = schema.isPostgres() ? "CAST(qty AS TEXT)" : "CAST(qty AS CHAR)";
    auto values = queryColumn(schema.env(), "SELECT CONCAT(COALESCE(" + qtyText +
                                                ", 'NULL'), '/', COALESCE(note, 'NULL'))" + from);
    Replica source;
    for (size_t i = 0; i < ids.size(); ++i) {
        source[{std::stoi(*ids[i]), *lines[i]}] = *values[i];
    }
    return source;
}

void compositeKeys(const DatabaseEnv& env, const std::string& prefix) {
    JournalledSchema schema(env, prefix);
    schema.createTable("lines",
                       "order_id INTEGER NOT NULL, line_no VARCHAR(10) NOT NULL, qty INTEGER, "
                       "note VARCHAR(40), PRIMARY KEY (order_id, line_no)",
                       "order_id,line_no");
    const std::string lines = schema.table("lines");
    schema.exec("INSERT INTO " + lines +
                " VALUES (1001, 'A-7', 1, 'first'), (1001, 'B', 2, 'second'), "
                "(1002, 'A-7', 3, 'third')");
    schema.exec("UPDATE " + lines + " SET qty = 5 WHERE order_id = 1001 AND line_no = 'B'");
    schema.exec("DELETE FROM " + lines + " WHERE order_id = 1002 AND line_no = 'A-7'");

    ScratchDir dir;
    const std::string config =
        schema.writeConfig(dir, {lines}, R"("page_size":100,"max_page_size":100)");
    TapRun first = runTapBinary({"--config", config});
    REQUIRE_MESSAGE(first.exitCode == 0, first.stderrText);

    auto schemas = first.messages("SCHEMA");
    REQUIRE(schemas.size() == 1);
    auto keys = schemas[0]->getArray("key_properties");
    REQUIRE(keys->size() == 2);
    CHECK(keys->getElement<std::string>(0) == "order_id");
    CHECK(keys->getElement<std::string>(1) == "line_no");
    auto required = schemas[0]->getObject("schema")->getArray("required");
    REQUIRE(required->size() == 2);
    CHECK(required->getElement<std::string>(1) == "line_no");

    // The rows of one page are independent of each other: found by key, not by position.
    std::map<Key, Poco::JSON::Object::Ptr> byKey;
    for (const auto& record : first.records(lines)) byKey[keyOf(record)] = record;
    REQUIRE(byKey.size() == 3);
    const auto tombstone = byKey[Key{1002, "A-7"}];
    CHECK(tombstone->getValue<bool>("is_deleted"));
    CHECK(tombstone->isNull("qty"));
    CHECK(tombstone->isNull("note"));
    CHECK(valueOf(byKey[Key{1001, "A-7"}]) == "1/first");
    CHECK(valueOf(byKey[Key{1001, "B"}]) == "5/second");

    Replica replica;
    std::string state = apply(first, lines, replica, "");
    CHECK(replica == sourceOf(schema, lines));

    // A row changed and then deleted: with one event per page, its re-pull finds it gone.
    // A key that changes is journalled as the old key's delete and the new key's update.
    schema.exec("INSERT INTO " + lines + " VALUES (2000, 'g', 9, 'gone')");
    schema.exec("DELETE FROM " + lines + " WHERE order_id = 2000");
    schema.exec("UPDATE " + lines +
                " SET line_no = 'A-8' WHERE order_id = 1001 AND line_no = 'A-7'");
    const std::string onePerPage =
        schema.writeConfig(dir, {lines}, R"("page_size":1,"max_page_size":1)");
    TapRun second = runTapBinary(argsWithState(onePerPage, dir, state));
    REQUIRE_MESSAGE(second.exitCode == 0, second.stderrText);
    int goneTombstones = 0;
    for (const auto& record : second.records(lines)) {
        if (keyOf(record) != Key{2000, "g"}) continue;
        CHECK(record->getValue<bool>("is_deleted"));
        ++goneTombstones;
    }
    CHECK(goneTombstones == 2);
    state = apply(second, lines, replica, state);
    CHECK(replica == sourceOf(schema, lines));

    // A stream that starts from a snapshot reads the table by its two-column key.
    ScratchDir snapshotDir;
    std::string snapshotConfig =
        schema.env().configPrefix() + R"(,"diffgen_table":")" + schema.diffgenTable() +
        R"(","tables":[{"table_name":")" + lines +
        R"(","pk_column":["order_id","line_no"],"start_from":"snapshot"}]})";
    TapRun snapshot = runTapBinary({"--config", snapshotDir.write("config.json", snapshotConfig)});
    REQUIRE_MESSAGE(snapshot.exitCode == 0, snapshot.stderrText);
    Replica fromSnapshot;
    apply(snapshot, lines, fromSnapshot, "");
    CHECK(fromSnapshot == sourceOf(schema, lines));

    // Many changes, the tap killed again and again and resumed from its last whole STATE.
    std::mt19937 random(11);
    for (int i = 0; i < 120; ++i) {
        const std::string order = std::to_string(3000 + static_cast<int>(random() % 6));
        const std::string line = "'L" + std::to_string(random() % 4) + "'";
        switch (random() % 3) {
            case 0:
                schema.exec("DELETE FROM " + lines + " WHERE order_id = " + order +
                            " AND line_no = " + line);
                break;
            case 1:
                schema.exec("UPDATE " + lines + " SET qty = qty + 1 WHERE order_id = " + order +
                            " AND line_no = " + line);
                break;
            default:
                schema.exec("DELETE FROM " + lines + " WHERE order_id = " + order +
                            " AND line_no = " + line);
                schema.exec("INSERT INTO " + lines + " VALUES (" + order + ", " + line + ", " +
                            std::to_string(i) + ", 'n" + std::to_string(i) + "')");
        }
    }
    const std::string smallPages =
        schema.writeConfig(dir, {lines}, R"("page_size":3,"max_page_size":3)");
    int kills = 0;
    for (int attempt = 0; attempt < 200; ++attempt) {
        TapProcess process(argsWithState(smallPages, dir, state));
        std::this_thread::sleep_for(std::chrono::milliseconds(random() % 40));
        const bool kill = attempt < 8;
        if (kill) process.signal(SIGKILL);
        TapRun run = process.wait();
        kills += kill ? 1 : 0;
        state = apply(run, lines, replica, state);
        if (!kill) {
            REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
            break;
        }
    }
    CHECK(kills == 8);
    CHECK(replica == sourceOf(schema, lines));
}

}  // namespace

TEST_CASE("postgres: composite keys: changes, tombstones, gone rows, snapshot and resume") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    compositeKeys(db, "ck");
}

TEST_CASE("mysql: composite keys: changes, tombstones, gone rows, snapshot and resume") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    compositeKeys(db, "ck");
}

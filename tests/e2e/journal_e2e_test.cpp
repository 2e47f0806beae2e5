// When the journal stops telling the truth, on the real servers with the shipped triggers: a
// log pruned past a bookmark and a log reset below it stop the run before any output (or, with
// start_from when_needed, snapshot the table again); a key shifted or swapped inside one
// statement keeps every row; a cached id sequence is refused unless accepted; a foreign key
// whose actions bypass the triggers is warned about.
#include <doctest/doctest.h>

#include <chrono>
#include <csignal>
#include <functional>
#include <thread>

#include "dialect_fixture.hpp"

using namespace tapdiffgen::testing;

namespace {

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// The rows of `table` as a target would hold them, by key, from the tap's output.
std::map<std::string, std::string> sourceNotes(const JournalledSchema& schema,
                                               const std::string& table) {
    std::map<std::string, std::string> rows;
    for (const auto& id : queryColumn(schema.env(), "SELECT id FROM " + table + " ORDER BY id")) {
        rows[*id] = queryScalar(schema.env(), "SELECT note FROM " + table + " WHERE id = " + *id);
    }
    return rows;
}

// key → note of every live row after applying the runs' records in order.
std::map<std::string, std::string> replicaNotes(const std::vector<const TapRun*>& runs,
                                                const std::string& stream) {
    std::map<std::string, std::string> replica;
    for (const TapRun* run : runs) {
        for (const auto& record : run->records(stream)) {
            const std::string key = record->get("id").toString();
            if (record->getValue<bool>("is_deleted")) {
                replica.erase(key);
            } else {
                replica[key] = record->get("note").toString();
            }
        }
    }
    return replica;
}

// A table of ten rows, replayed once: returns that run (its last STATE is the bookmark).
struct ReplayedItems {
    ReplayedItems(const DatabaseEnv& env, const std::string& prefix, const std::string& extra = "")
        : schema(env, prefix) {
        items = schema.createNumberedItems(10);
        config = schema.writeConfig(dir, {items}, extra);
        first = runTapBinary({"--config", config});
        REQUIRE_MESSAGE(first.exitCode == 0, first.stderrText);
        bookmark = *first.lastBookmark(items);
    }
    TapRun resume(const std::string& configPath) {
        return runTapBinary(
            {"--config", configPath, "--state", dir.write("state.json", first.lastState())});
    }

    JournalledSchema schema;
    ScratchDir dir;
    std::string items;
    std::string config;
    TapRun first;
    int64_t bookmark = 0;
};

void prunedJournalStopsTheRun(const DatabaseEnv& env, const std::string& prefix) {
    ReplayedItems replayed(env, prefix);
    JournalledSchema& schema = replayed.schema;
    // Updates and an insert: a snapshot emits the rows that exist, so a delete among the
    // events pruned would stay in a target (docs/journal.md, "Pruning the journal").
    schema.exec("UPDATE " + replayed.items + " SET note = 'changed' WHERE id <= 5");
    schema.exec("INSERT INTO " + replayed.items + " VALUES (11, 'new')");
    const std::string newest = queryScalar(env, "SELECT max(id) FROM " + schema.diffgenTable());
    // A retention job deletes the oldest events, past the bookmark: ids bookmark+1..+3 are gone.
    schema.exec("DELETE FROM " + schema.diffgenTable() +
                " WHERE id <= " + std::to_string(replayed.bookmark + 3));

    TapRun stopped = replayed.resume(replayed.config);
    CHECK(stopped.exitCode == 1);
    CHECK(stopped.lines.empty());
    const std::string bookmark = std::to_string(replayed.bookmark);
    CHECK(contains(
        stopped.stderrText,
        "stream '" + replayed.items + "': diffgen no longer covers its bookmark " + bookmark +
            ": the oldest event left is id " + std::to_string(replayed.bookmark + 4) +
            ", so the changes journalled at "
            "ids " +
            std::to_string(replayed.bookmark + 1) + " to " + std::to_string(replayed.bookmark + 3) +
            " were pruned before they were "
            "read; set \"start_from\": \"when_needed\" on table '" +
            replayed.items + "' to snapshot it again"));

    ScratchDir other;
    const std::string config = other.write(
        "config.json", env.configPrefix() + R"(,"diffgen_table":")" + schema.diffgenTable() +
                           R"(","tables":[{"table_name":")" + replayed.items +
                           R"(","pk_column":"id","start_from":"when_needed"}]})");
    TapRun again = replayed.resume(config);
    REQUIRE_MESSAGE(again.exitCode == 0, again.stderrText);
    CHECK(
        contains(again.stderrText, "start_from is when_needed, so the table is snapshotted again"));
    CHECK(replicaNotes({&replayed.first, &again}, replayed.items) ==
          sourceNotes(schema, replayed.items));
    CHECK(*again.lastBookmark(replayed.items) >= std::stoll(newest));
}

void resetJournalStopsTheRun(const DatabaseEnv& env, const std::string& prefix,
                             const std::string& resetSql) {
    ReplayedItems replayed(env, prefix);
    JournalledSchema& schema = replayed.schema;
    schema.exec(resetSql);
    schema.exec("UPDATE " + replayed.items + " SET note = 'after the reset' WHERE id = 1");
    TapRun stopped = replayed.resume(replayed.config);
    CHECK(stopped.exitCode == 1);
    CHECK(stopped.lines.empty());
    CHECK(contains(stopped.stderrText, "stream '" + replayed.items +
                                           "': diffgen was reset below its bookmark " +
                                           std::to_string(replayed.bookmark) + ": its "));
}

// ---- Every situation of docs/journal.md's table, with and without the prune record --------

enum class PruneRecord { Kept, Dropped };

const char* nameOf(PruneRecord record) {
    return record == PruneRecord::Kept ? "with the prune record" : "without the prune record";
}

// An installation made before the prune record: its table and the triggers that keep it gone.
void dropPruneRecord(const JournalledSchema& schema) {
    const std::string diffgen = schema.diffgenTable();
    if (schema.isPostgres()) {
        schema.exec("DROP TRIGGER " + diffgen + "_pruned ON " + diffgen);
        schema.exec("DROP TRIGGER " + diffgen + "_pruned_truncate ON " + diffgen);
    } else {
        schema.exec("DROP TRIGGER " + diffgen + "_note_pruned");
    }
    schema.exec("DROP TABLE " + schema.pruneRecordTable());
}

// Ten rows replayed once, then runs that each go on from the last one's STATE.
class Journey {
public:
    Journey(const DatabaseEnv& env, const std::string& prefix, PruneRecord record)
        : schema(env, prefix) {
        if (record == PruneRecord::Dropped) dropPruneRecord(schema);
        items = schema.createNumberedItems(10);
        config = schema.writeConfig(dir, {items});
        REQUIRE_MESSAGE(next().exitCode == 0, last.stderrText);
    }

    // A run from the last STATE, which becomes the next run's start when it wrote one.
    const TapRun& next() {
        std::vector<std::string> arguments{"--config", config};
        if (!state.empty()) {
            arguments.push_back("--state");
            arguments.push_back(dir.write("state.json", state));
        }
        last = runTapBinary(arguments);
        if (last.lastBookmark(items)) state = last.lastState();
        return last;
    }
    int64_t bookmark() const { return *last.lastBookmark(items); }
    std::string diffgen() const { return schema.diffgenTable(); }
    int64_t newestId() const {
        return std::stoll(queryScalar(schema.env(), "SELECT max(id) FROM " + diffgen()));
    }
    // A change the next run must emit: the note of row `id`.
    void change(int id, const std::string& note) const {
        schema.exec("UPDATE " + items + " SET note = '" + note +
                    "' WHERE id = " + std::to_string(id));
    }
    // An insert rolled back: its diffgen id is taken and never committed.
    void rollBackAnInsert() const {
        schema.exec("BEGIN; INSERT INTO " + items + " VALUES (99, 'rolled back'); ROLLBACK");
    }
    // The last run succeeded and emitted `note` for row `id`, and its bookmark is the head.
    void expectEmitted(int id, const std::string& note) const {
        REQUIRE_MESSAGE(last.exitCode == 0, last.stderrText);
        bool found = false;
        for (const auto& record : last.records(items)) {
            found = found || (record->getValue<int>("id") == id &&
                              record->getValue<std::string>("note") == note);
        }
        CHECK_MESSAGE(found, "no record of row " << id << " with note " << note);
        CHECK(bookmark() == newestId());
    }
    // The last run stopped before any output with `message`.
    void expectStop(const std::string& message) const {
        CHECK(last.exitCode == 1);
        CHECK(last.lines.empty());
        CHECK_MESSAGE(contains(last.stderrText, message), last.stderrText);
    }
    std::string stopHint() const {
        return "; set \"start_from\": \"when_needed\" on table '" + items +
               "' to snapshot it again";
    }

    JournalledSchema schema;
    ScratchDir dir;
    std::string items;
    std::string config;
    std::string state;
    TapRun last;
};

// Moves the log's id source to `next` (the id it hands out next), past the head.
void moveIdsForward(const Journey& journey, int64_t next, int variant) {
    const std::string sequence = journey.diffgen() + "_id_seq";
    if (!journey.schema.isPostgres()) {
        journey.schema.exec("ALTER TABLE " + journey.diffgen() +
                            " AUTO_INCREMENT = " + std::to_string(next));
    } else if (variant == 0) {
        journey.schema.exec("SELECT setval('" + sequence + "', " + std::to_string(next - 1) + ")");
    } else if (variant == 1) {
        journey.schema.exec("SELECT setval('" + sequence + "', " + std::to_string(next) +
                            ", false)");
    } else {
        journey.schema.exec("ALTER SEQUENCE " + sequence + " RESTART WITH " + std::to_string(next));
    }
}

// A DBA moves the id source forward (setval past the head, setval(..., false), ALTER SEQUENCE
// RESTART WITH, AUTO_INCREMENT): nothing is lost, in either mode.
void forwardSetvalGoesOn(const DatabaseEnv& env, const std::string& prefix) {
    for (PruneRecord record : {PruneRecord::Kept, PruneRecord::Dropped}) {
        CAPTURE(nameOf(record));
        Journey journey(env, prefix, record);
        for (int variant = 0; variant < 3; ++variant) {
            CAPTURE(variant);
            moveIdsForward(journey, journey.newestId() + 1000, variant);
            journey.change(1, "forward " + std::to_string(variant));
            journey.next();
            journey.expectEmitted(1, "forward " + std::to_string(variant));
            CHECK(journey.bookmark() > 1000);
        }
    }
}

using JournalSql = std::function<std::string(const Journey&)>;

// Every committed event was read, then deleted by a retention job (a normal policy).
void emptyTheJournal(const Journey& journey) {
    journey.schema.exec("DELETE FROM " + journey.diffgen() +
                        " WHERE id <= " + std::to_string(journey.bookmark()));
}

// A reset below the bookmark stops the run in either mode, naming the next id.
void resetStops(const DatabaseEnv& env, const std::string& prefix, const JournalSql& resetSql) {
    for (PruneRecord record : {PruneRecord::Kept, PruneRecord::Dropped}) {
        CAPTURE(nameOf(record));
        Journey journey(env, prefix, record);
        const int64_t bookmark = journey.bookmark();
        journey.schema.exec(resetSql(journey));
        journey.change(1, "after the reset");
        const std::string nextId = std::to_string(journey.newestId() + 1);
        journey.next();
        journey.expectStop("stream '" + journey.items + "': diffgen was reset below its bookmark " +
                           std::to_string(bookmark) + ": its next id is " + nextId +
                           " (TRUNCATE ... RESTART IDENTITY, or a restore from an older backup)" +
                           journey.stopHint());
    }
}

// Everything read, then deleted: the ids go on, nothing is lost, in either mode; and again
// after the id source moved forward, where only the record can tell.
void emptiedJournalGoesOn(const DatabaseEnv& env, const std::string& prefix) {
    for (PruneRecord record : {PruneRecord::Kept, PruneRecord::Dropped}) {
        CAPTURE(nameOf(record));
        Journey journey(env, prefix, record);
        emptyTheJournal(journey);
        journey.next();
        REQUIRE_MESSAGE(journey.last.exitCode == 0, journey.last.stderrText);
        journey.change(2, "after emptying");
        journey.next();
        journey.expectEmitted(2, "after emptying");
    }
}

// Everything read and deleted, then an insert rolled back: its id, right after the bookmark,
// never appears. The record knows it was never pruned; without it, the gap is taken for a
// prune of that one id.
void rolledBackAfterEmptying(const DatabaseEnv& env, const std::string& prefix) {
    for (PruneRecord record : {PruneRecord::Kept, PruneRecord::Dropped}) {
        CAPTURE(nameOf(record));
        Journey journey(env, prefix, record);
        const int64_t bookmark = journey.bookmark();
        emptyTheJournal(journey);
        journey.rollBackAnInsert();
        journey.change(3, "after a rollback");
        journey.next();
        if (record == PruneRecord::Kept) {
            journey.expectEmitted(3, "after a rollback");
            continue;
        }
        const std::string lost = std::to_string(bookmark + 1);
        journey.expectStop("stream '" + journey.items +
                           "': diffgen no longer covers its bookmark " + std::to_string(bookmark) +
                           ": the oldest event left is id " + std::to_string(bookmark + 2) +
                           ", so the changes journalled at ids " + lost + " to " + lost +
                           " were pruned before they were read" + journey.stopHint());
    }
}

// Ids taken by transactions that rolled back (or died with a crash) between committed events,
// the log not emptied: nothing is lost, in either mode.
void crashGapsGoOn(const DatabaseEnv& env, const std::string& prefix) {
    for (PruneRecord record : {PruneRecord::Kept, PruneRecord::Dropped}) {
        CAPTURE(nameOf(record));
        Journey journey(env, prefix, record);
        journey.rollBackAnInsert();
        journey.change(4, "between gaps");
        journey.rollBackAnInsert();
        journey.rollBackAnInsert();
        journey.change(5, "after gaps");
        journey.next();
        journey.expectEmitted(4, "between gaps");
        journey.expectEmitted(5, "after gaps");
    }
}

// A retention job deletes events past the bookmark that were never read: a stop in either
// mode. With the record, also when it deleted every event (an empty log shows no gap).
void realPrunesStop(const DatabaseEnv& env, const std::string& prefix) {
    for (PruneRecord record : {PruneRecord::Kept, PruneRecord::Dropped}) {
        CAPTURE(nameOf(record));
        Journey journey(env, prefix, record);
        const int64_t bookmark = journey.bookmark();
        journey.change(1, "pruned");
        journey.change(2, "pruned");
        journey.change(3, "kept");
        journey.schema.exec("DELETE FROM " + journey.diffgen() +
                            " WHERE id <= " + std::to_string(bookmark + 2));
        journey.next();
        journey.expectStop("stream '" + journey.items +
                           "': diffgen no longer covers its bookmark " + std::to_string(bookmark) +
                           ": the oldest event left is id " + std::to_string(bookmark + 3) +
                           ", so the changes journalled at ids " + std::to_string(bookmark + 1) +
                           " to " + std::to_string(bookmark + 2) +
                           " were pruned before they were read" + journey.stopHint());
        journey.schema.exec("DELETE FROM " + journey.diffgen());
        journey.next();
        if (record == PruneRecord::Kept) {
            journey.expectStop(
                "stream '" + journey.items + "': diffgen no longer covers its bookmark " +
                std::to_string(bookmark) + ": its prune record says events up to id " +
                std::to_string(bookmark + 3) + " were deleted, so the changes journalled at ids " +
                std::to_string(bookmark + 1) + " to " + std::to_string(bookmark + 3) +
                " were pruned before they were read" + journey.stopHint());
        } else {
            // Nothing left to tell a prune by: the loss goes unnoticed (docs/journal.md).
            CHECK(journey.last.exitCode == 0);
        }
    }
}

// A restore from an older backup: the log and its id source are back before the bookmark.
std::string restoreOlderBackupSql(const Journey& journey) {
    const std::string diffgen = journey.diffgen();
    const std::string kept = std::to_string(journey.bookmark() - 5);
    if (journey.schema.isPostgres()) {
        return "DELETE FROM " + diffgen + " WHERE id > " + kept + "; SELECT setval('" + diffgen +
               "_id_seq', " + kept + ")";
    }
    return "DELETE FROM " + diffgen + " WHERE id > " + kept + "; ALTER TABLE " + diffgen +
           " AUTO_INCREMENT = " + std::to_string(journey.bookmark() - 4);
}

}  // namespace

TEST_CASE("postgres: a journal pruned past a bookmark stops the run, or snapshots when needed") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    prunedJournalStopsTheRun(db, "jr_prune");
}

TEST_CASE("mysql: a journal pruned past a bookmark stops the run, or snapshots when needed") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    prunedJournalStopsTheRun(db, "jr_prune");
}

TEST_CASE("postgres: a journal reset below a bookmark stops the run") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    resetJournalStopsTheRun(db, "jr_reset", "TRUNCATE jr_reset_diffgen RESTART IDENTITY");
}

TEST_CASE("mysql: a journal reset below a bookmark stops the run") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    resetJournalStopsTheRun(db, "jr_reset", "TRUNCATE TABLE jr_reset_diffgen");
}

TEST_CASE("postgres: keys shifted and swapped inside one statement keep every row") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    JournalledSchema schema(db, "jr_shift");
    schema.createTable("k", "id integer PRIMARY KEY DEFERRABLE, note text", "id");
    const std::string table = schema.table("k");
    schema.exec("INSERT INTO " + table +
                " VALUES (1, 'a'), (2, 'b'), (3, 'c'), (7, 'x'), (8, 'y')");
    ScratchDir dir;
    const std::string config = schema.writeConfig(dir, {table});
    TapRun first = runTapBinary({"--config", config});
    REQUIRE_MESSAGE(first.exitCode == 0, first.stderrText);

    // Journalled row by row: 1d 2u 2d 3u 3d 4u, then 7d 8u 8d 7u: the latest event of keys
    // 2, 3 and 8 is a delete, yet those rows exist.
    schema.exec("UPDATE " + table + " SET id = id + 1 WHERE id <= 3");
    schema.exec("UPDATE " + table + " SET id = 15 - id WHERE id IN (7, 8)");
    TapRun second =
        runTapBinary({"--config", config, "--state", dir.write("state.json", first.lastState())});
    REQUIRE_MESSAGE(second.exitCode == 0, second.stderrText);
    const auto source = sourceNotes(schema, table);
    CHECK(source.size() == 5);
    CHECK(replicaNotes({&first, &second}, table) == source);

    // The same from the beginning of the log, every event in one page.
    TapRun whole = runTapBinary({"--config", config});
    REQUIRE_MESSAGE(whole.exitCode == 0, whole.stderrText);
    CHECK(replicaNotes({&whole}, table) == source);
}

TEST_CASE("postgres: a composite key shifted inside one statement keeps every row") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    JournalledSchema schema(db, "jr_cshift");
    schema.createTable("lines",
                       "order_id integer, line_no integer, note text, "
                       "PRIMARY KEY (order_id, line_no) DEFERRABLE",
                       "order_id,line_no");
    const std::string table = schema.table("lines");
    schema.exec("INSERT INTO " + table + " VALUES (1, 1, 'a'), (1, 2, 'b'), (1, 3, 'c')");
    schema.exec("UPDATE " + table + " SET line_no = line_no + 1");
    ScratchDir dir;
    TapRun run = runTapBinary({"--config", schema.writeConfig(dir, {table})});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    std::map<std::string, std::string> replica;
    for (const auto& record : run.records(table)) {
        const std::string key =
            record->get("order_id").toString() + "/" + record->get("line_no").toString();
        if (record->getValue<bool>("is_deleted")) {
            replica.erase(key);
        } else {
            replica[key] = record->get("note").toString();
        }
    }
    CHECK(replica == std::map<std::string, std::string>{{"1/2", "a"}, {"1/3", "b"}, {"1/4", "c"}});
}

TEST_CASE("postgres: a cached diffgen id sequence is refused unless accepted") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    JournalledSchema schema(db, "jr_cache");
    const std::string items = schema.createNumberedItems(3);
    schema.exec("ALTER SEQUENCE " + schema.diffgenTable() + "_id_seq CACHE 50");
    ScratchDir dir;
    TapRun refused = runTapBinary({"--config", schema.writeConfig(dir, {items})});
    CHECK(refused.exitCode == 1);
    CHECK(refused.lines.empty());
    const std::string sequence = "public." + schema.diffgenTable() + "_id_seq";
    CHECK(contains(
        refused.stderrText,
        "diffgen.id comes from " + sequence +
            " with CACHE 50: a session holds cached "
            "ids between its transactions and can commit one after the tap has read past "
            "it, and that change is lost; run ALTER SEQUENCE " +
            sequence + " CACHE 1, or set accept_cached_sequence to true to accept the risk"));

    TapRun accepted = runTapBinary(
        {"--config", schema.writeConfig(dir, {items}, R"("accept_cached_sequence":true)")});
    REQUIRE_MESSAGE(accepted.exitCode == 0, accepted.stderrText);
    CHECK(contains(accepted.stderrText, "(accept_cached_sequence is true)"));
    CHECK(accepted.records(items).size() == 3);
}

TEST_CASE("mysql: a foreign key whose actions bypass the triggers is warned about") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    JournalledSchema schema(db, "jr_fk");
    // The child goes first, here and at the end: the parent cannot be dropped before it.
    schema.exec("DROP TABLE IF EXISTS " + schema.table("child"));
    schema.createTable("parent", "id INTEGER PRIMARY KEY, note VARCHAR(20)", "id");
    schema.createTable("child",
                       "id INTEGER PRIMARY KEY, parent_id INTEGER, note VARCHAR(20), "
                       "CONSTRAINT jr_fk_child_parent FOREIGN KEY (parent_id) REFERENCES "
                       "jr_fk_parent (id) ON DELETE CASCADE",
                       "id");
    const std::string child = schema.table("child");
    schema.exec("INSERT INTO " + schema.table("parent") + " VALUES (1, 'p')");
    schema.exec("INSERT INTO " + child + " VALUES (1, 1, 'c')");
    ScratchDir dir;
    TapRun run = runTapBinary({"--config", schema.writeConfig(dir, {child})});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(contains(run.stderrText, "table '" + child +
                                       "': foreign key jr_fk_child_parent (ON "
                                       "DELETE CASCADE from '"));
    CHECK(contains(run.stderrText, "changes its rows without firing its triggers"));
    schema.exec("DROP TABLE " + child);
}

// ---- docs/journal.md, "Every situation, and what the tap does": one test per row ----------

TEST_CASE("postgres situation: a forward setval goes on") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    forwardSetvalGoesOn(db, "js_forward");
}

TEST_CASE("mysql situation: a forward AUTO_INCREMENT goes on") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    forwardSetvalGoesOn(db, "js_forward");
}

TEST_CASE("postgres situation: a sequence restart stops the run") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    resetStops(db, "js_restart", [](const Journey& journey) {
        // On an emptied log: the new ids would collide with the events left.
        return "DELETE FROM " + journey.diffgen() + "; ALTER SEQUENCE " + journey.diffgen() +
               "_id_seq RESTART";
    });
    resetStops(db, "js_restart", [](const Journey& journey) {
        return "TRUNCATE " + journey.diffgen() + " RESTART IDENTITY";
    });
}

TEST_CASE("mysql situation: a TRUNCATE, which restarts the ids, stops the run") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    resetStops(db, "js_restart",
               [](const Journey& journey) { return "TRUNCATE TABLE " + journey.diffgen(); });
}

TEST_CASE("postgres situation: an emptied journal goes on") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    emptiedJournalGoesOn(db, "js_emptied");
}

TEST_CASE("mysql situation: an emptied journal goes on") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    emptiedJournalGoesOn(db, "js_emptied");
}

TEST_CASE("postgres situation: ids rolled back at the head after emptying") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    rolledBackAfterEmptying(db, "js_rollback");
}

TEST_CASE("mysql situation: ids rolled back at the head after emptying") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    rolledBackAfterEmptying(db, "js_rollback");
}

TEST_CASE("postgres situation: crash gaps go on") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    crashGapsGoOn(db, "js_gaps");
}

TEST_CASE("mysql situation: crash gaps go on") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    crashGapsGoOn(db, "js_gaps");
}

TEST_CASE("postgres situation: a real prune stops the run") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    realPrunesStop(db, "js_prune");
}

TEST_CASE("mysql situation: a real prune stops the run") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    realPrunesStop(db, "js_prune");
}

TEST_CASE("postgres situation: a real reset (an older backup restored) stops the run") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    resetStops(db, "js_reset", restoreOlderBackupSql);
}

TEST_CASE("mysql situation: a real reset (an older backup restored) stops the run") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    resetStops(db, "js_reset", restoreOlderBackupSql);
}

// ---- The key a trigger journals against pk_column ----------------------------------------

// A config whose table's pk_column is `pkColumns` ("b,a"), whatever its trigger journals.
std::string configWithKey(const JournalledSchema& schema, const ScratchDir& dir,
                          const std::string& table, const std::string& pkColumns) {
    std::string list = pkColumns;
    for (size_t at = list.find(','); at != std::string::npos; at = list.find(',', at + 3)) {
        list.replace(at, 1, "\",\"");
    }
    return dir.write("config.json", schema.env().configPrefix() + R"(,"diffgen_table":")" +
                                        schema.diffgenTable() + R"(","tables":[{"table_name":")" +
                                        table + R"(","pk_column":[")" + list + R"("]}]})");
}

// The trigger journals `journalled` while pk_column is `configured` ("b,a"): --check-journal exits
// 1 and a sync stops before any output, both with the one line naming both.
void keyMismatchStops(const JournalledSchema& schema, const std::string& table,
                      const std::string& journalled, const std::string& configured) {
    ScratchDir dir;
    const std::string config = configWithKey(schema, dir, table, configured);
    std::string shown = configured;
    for (size_t at = shown.find(','); at != std::string::npos; at = shown.find(',', at + 2)) {
        shown.insert(at + 1, " ");
    }
    const std::string finding = "journals key column(s) (" + journalled +
                                ") into diffgen.table_id, but pk_column is (" + shown + ")";
    TapRun check = runTapBinary({"--config", config, "--check-journal"});
    CHECK(check.exitCode == 1);
    std::string report;
    for (const auto& line : check.lines) report += line + "\n";
    CHECK_MESSAGE(contains(report, "  PROBLEM: table '" + table + "': trigger "), report);
    CHECK_MESSAGE(contains(report, finding), report);
    TapRun sync = runTapBinary({"--config", config});
    CHECK(sync.exitCode == 1);
    CHECK(sync.lines.empty());
    CHECK_MESSAGE(contains(sync.stderrText, "table '" + table + "': trigger "), sync.stderrText);
    CHECK_MESSAGE(contains(sync.stderrText, finding), sync.stderrText);
}

TEST_CASE("postgres: a trigger that journals another key than pk_column stops the run") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    JournalledSchema schema(db, "jr_key");
    schema.createTable("codes", "id integer PRIMARY KEY, code text UNIQUE NOT NULL, note text",
                       "id");
    const std::string codes = schema.table("codes");
    schema.exec("INSERT INTO " + codes + " VALUES (1, 'a', 'x')");
    keyMismatchStops(schema, codes, "id", "code");
    schema.createTable("lines", "a integer, b integer, note text, PRIMARY KEY (a, b)", "a,b");
    keyMismatchStops(schema, schema.table("lines"), "a, b", "b,a");
    keyMismatchStops(schema, schema.table("lines"), "a, b", "a");
    // The compatible path: the shared diffgen_journal names the key in its argument.
    const std::string shared = schema.table("shared");
    schema.exec("DROP TABLE IF EXISTS " + shared);
    schema.exec("CREATE TABLE " + shared + " (id integer PRIMARY KEY, code text UNIQUE NOT NULL)");
    schema.exec("CREATE TRIGGER " + shared + "_diffgen AFTER INSERT OR UPDATE OR DELETE ON " +
                shared + " FOR EACH ROW EXECUTE FUNCTION " + schema.diffgenTable() +
                "_journal('id')");
    keyMismatchStops(schema, shared, "id", "code");
    schema.exec("DROP TABLE " + shared);

    // The matching key passes both.
    ScratchDir dir;
    const std::string config = configWithKey(schema, dir, codes, "id");
    TapRun check = runTapBinary({"--config", config, "--check-journal"});
    CHECK(check.exitCode == 0);
    TapRun sync = runTapBinary({"--config", config});
    CHECK_MESSAGE(sync.exitCode == 0, sync.stderrText);
    CHECK(sync.records(codes).size() == 1);
}

TEST_CASE("mysql: a trigger that journals another key than pk_column stops the run") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    JournalledSchema schema(db, "jr_key");
    schema.createTable("codes",
                       "id INTEGER PRIMARY KEY, code VARCHAR(20) NOT NULL UNIQUE, note TEXT", "id");
    const std::string codes = schema.table("codes");
    schema.exec("INSERT INTO " + codes + " VALUES (1, 'a', 'x')");
    keyMismatchStops(schema, codes, "id", "code");
    schema.createTable("lines", "a INTEGER, b INTEGER, note TEXT, PRIMARY KEY (a, b)", "a,b");
    keyMismatchStops(schema, schema.table("lines"), "a, b", "b,a");

    ScratchDir dir;
    const std::string config = configWithKey(schema, dir, codes, "id");
    TapRun check = runTapBinary({"--config", config, "--check-journal"});
    CHECK(check.exitCode == 0);
    TapRun sync = runTapBinary({"--config", config});
    CHECK_MESSAGE(sync.exitCode == 0, sync.stderrText);
    CHECK(sync.records(codes).size() == 1);
}

// ---- The same rules while a following tap runs --------------------------------------------

namespace {

// Waits up to 30 s for `ready` over the output so far.
bool untilOutput(const TapProcess& process, const std::function<bool(const TapRun&)>& ready) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < until) {
        TapRun partial;
        partial.setOutput(process.stdoutSoFar(), "");
        if (ready(partial)) return true;
        if (process.exited()) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
}

bool emittedNote(const TapRun& run, const std::string& stream, int id, const std::string& note) {
    for (const auto& record : run.records(stream)) {
        if (record->getValue<int>("id") == id && record->getValue<std::string>("note") == note) {
            return true;
        }
    }
    return false;
}

// A following tap that checks the log's head every second.
TapProcess follow(const Journey& journey) {
    const std::string config = journey.schema.writeConfig(
        journey.dir, {journey.items},
        R"("follow":true,"poll_interval_seconds":0.2,"state_interval_seconds":1,)"
        R"("max_run_seconds":90)");
    return TapProcess(
        {"--config", config, "--state", journey.dir.write("state.json", journey.state)});
}

// A forward setval, an emptied journal and ids rolled back at its head: the following tap
// emits every change and keeps running through several checks at the head.
void followingTapGoesOn(const DatabaseEnv& env, const std::string& prefix) {
    Journey journey(env, prefix, PruneRecord::Kept);
    TapProcess process = follow(journey);
    const std::string items = journey.items;
    REQUIRE(untilOutput(process, [](const TapRun& run) { return !run.messages("STATE").empty(); }));
    moveIdsForward(journey, journey.newestId() + 1000, 1);
    journey.change(1, "forward");
    CHECK(untilOutput(process,
                      [&](const TapRun& run) { return emittedNote(run, items, 1, "forward"); }));
    journey.schema.exec("DELETE FROM " + journey.diffgen());
    journey.rollBackAnInsert();
    journey.change(2, "after a rollback");
    CHECK(untilOutput(process, [&](const TapRun& run) {
        return emittedNote(run, items, 2, "after a rollback");
    }));
    std::this_thread::sleep_for(std::chrono::milliseconds(3500));  // three checks at the head
    CHECK_FALSE(process.exited());
    process.signal(SIGTERM);
    TapRun run = process.wait();
    CHECK_MESSAGE(run.exitCode == 0, run.stderrText);
}

// The ids restart below the cursor of a following tap: it stops within seconds.
void followingTapStopsAtAReset(const DatabaseEnv& env, const std::string& prefix,
                               const JournalSql& resetSql) {
    Journey journey(env, prefix, PruneRecord::Kept);
    const int64_t bookmark = journey.bookmark();
    TapProcess process = follow(journey);
    REQUIRE(untilOutput(process, [](const TapRun& run) { return !run.messages("STATE").empty(); }));
    journey.schema.exec(resetSql(journey));
    journey.change(1, "after the reset");
    const auto start = std::chrono::steady_clock::now();
    while (!process.exited() &&
           std::chrono::steady_clock::now() - start < std::chrono::seconds(20)) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    TapRun run = process.wait();
    CHECK(run.exitCode == 1);
    CHECK_MESSAGE(contains(run.stderrText, "stream '" + journey.items +
                                               "': diffgen was reset below its bookmark " +
                                               std::to_string(bookmark) + ": its next id is "),
                  run.stderrText);
    CHECK(contains(run.stderrText, "while the tap ran"));
}

std::string truncateRestartSql(const Journey& journey) {
    return journey.schema.isPostgres() ? "TRUNCATE " + journey.diffgen() + " RESTART IDENTITY"
                                       : "TRUNCATE TABLE " + journey.diffgen();
}

}  // namespace

TEST_CASE("postgres situation: a following tap goes on through a forward setval and rollbacks") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    followingTapGoesOn(db, "js_follow");
}

TEST_CASE("mysql situation: a following tap goes on through a forward setval and rollbacks") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    followingTapGoesOn(db, "js_follow");
}

TEST_CASE("postgres situation: a following tap stops at a reset below its cursor") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    followingTapStopsAtAReset(db, "js_follow_reset", truncateRestartSql);
}

TEST_CASE("mysql situation: a following tap stops at a reset below its cursor") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    followingTapStopsAtAReset(db, "js_follow_reset", truncateRestartSql);
}

TEST_CASE("postgres situation: a prune record from before the ids restarted is warned about") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    Journey journey(db, "js_stale", PruneRecord::Kept);
    // TRUNCATE's trigger records the ids it removes; RESTART IDENTITY then numbers anew.
    journey.schema.exec("TRUNCATE " + journey.diffgen() + " RESTART IDENTITY");
    journey.change(1, "after the reset");
    const std::string record = journey.schema.pruneRecordTable();
    ScratchDir dir;
    const std::string config =
        dir.write("config.json", db.configPrefix() + R"(,"diffgen_table":")" + journey.diffgen() +
                                     R"(","tables":[{"table_name":")" + journey.items +
                                     R"(","pk_column":"id","start_from":"when_needed"}]})");
    journey.config = config;
    journey.next();
    REQUIRE_MESSAGE(journey.last.exitCode == 0, journey.last.stderrText);
    CHECK(contains(journey.last.stderrText,
                   "start_from is when_needed, so the table is "
                   "snapshotted again"));
    CHECK_MESSAGE(contains(journey.last.stderrText,
                           "the prune record " + journey.diffgen() +
                               "_pruned says ids up to 10 "
                               "were deleted, at or past the next id 2: it is from before the ids "
                               "restarted, so prunes are told by gaps again; run UPDATE " +
                               journey.diffgen() + "_pruned SET highest_pruned_id = 0"),
                  journey.last.stderrText);
    journey.schema.exec("UPDATE " + record + " SET highest_pruned_id = 0");
    journey.change(2, "record set back");
    journey.next();
    journey.expectEmitted(2, "record set back");
    CHECK_FALSE(contains(journey.last.stderrText, "the prune record"));
}

// The journal checks through the real loader and ABI, against the fake plugin's journal facts:
// a pruned or reset log, a cached id sequence, partitions journalled under their own names,
// foreign-key actions that bypass triggers, and a prune while the tap runs.
#include <doctest/doctest.h>

#include "engine/fake_database.hpp"

using tapdiffgen::testing::FakeSetup;
using tapdiffgen::testing::runTap;
using tapdiffgen::testing::TapRun;

namespace {

const char* kItems = R"("items":{"columns":[
    {"name":"id","kind":"int64","pk":true},{"name":"note","kind":"text"}],
  "rows":[[1,"one"],[2,"two"],[3,"three"]]})";

// Events `ids` on key id % 3 + 1 of items, updates; `extra`: more members of the file.
std::string itemsDatabase(const std::vector<int>& ids, const std::string& extra = "") {
    std::string events;
    for (int id : ids) {
        events += (events.empty() ? "" : ",") + std::string("[") + std::to_string(id) +
                  R"(,"items",")" + std::to_string(id % 3 + 1) + R"(","u","t)" +
                  std::to_string(id) + R"("])";
    }
    return std::string(R"({"tables":{)") + kItems + R"(},"diffgen":[)" + events + "]" + extra + "}";
}

std::vector<int> idRange(int from, int to) {
    std::vector<int> ids;
    for (int id = from; id <= to; ++id) ids.push_back(id);
    return ids;
}

std::string itemsTable(const std::string& more = "") {
    return R"("tables":[{"table_name":"items","pk_column":"id")" + more + "}]";
}

std::string stateAt(const FakeSetup& setup, int bookmark) {
    return setup.write("state.json", R"({"bookmarks":{"items":{"replication_key":"diffgen_id",)"
                                     R"("replication_key_value":)" +
                                         std::to_string(bookmark) + "}}}");
}

TapRun runFrom(const FakeSetup& setup, int bookmark) {
    return runTap({"--config", setup.configPath(), "--state", stateAt(setup, bookmark)});
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("a log pruned past a bookmark stops the run before any output") {
    FakeSetup setup(itemsDatabase(idRange(550, 600)), itemsTable());
    TapRun run = runFrom(setup, 100);
    CHECK(run.exitCode == 1);
    CHECK(run.lines.empty());
    CHECK(contains(run.stderrText,
                   "stream 'items': diffgen no longer covers its bookmark 100: the oldest event "
                   "left is id 550, so the changes journalled at ids 101 to 549 were pruned "
                   "before they were read; set \"start_from\": \"when_needed\" on table 'items' "
                   "to snapshot it again\n"));
}

TEST_CASE("a log that still holds the bookmark's event or older has lost nothing") {
    // Ids 6 and 7 were rolled back; the bookmark's own event 5 is still there.
    FakeSetup setup(itemsDatabase({5, 8, 9}), itemsTable());
    TapRun run = runFrom(setup, 5);
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(run.records("items").size() == 2);
    CHECK(run.lastBookmark("items") == 9);
}

TEST_CASE("a pruned log re-snapshots a stream whose start_from is when_needed") {
    FakeSetup setup(itemsDatabase(idRange(550, 600)), itemsTable(R"(,"start_from":"when_needed")"));
    TapRun run = runFrom(setup, 100);
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(contains(run.stderrText,
                   "were pruned before they were read; start_from is when_needed, so the table "
                   "is snapshotted again"));
    // Every row of the table, then replay from the head the snapshot began at.
    CHECK(run.records("items").size() == 3);
    CHECK(run.lastBookmark("items") == 600);
}

TEST_CASE("a log whose ids start again below the bookmark stops the run") {
    SUBCASE("the id source's next id tells") {
        FakeSetup setup(itemsDatabase({1, 2}, R"(,"journal":{"next_id":3})"), itemsTable());
        TapRun run = runFrom(setup, 600);
        CHECK(run.exitCode == 1);
        CHECK(run.lines.empty());
        CHECK(contains(run.stderrText,
                       "stream 'items': diffgen was reset below its bookmark 600: its next id is "
                       "3 (TRUNCATE ... RESTART IDENTITY, or a restore from an older backup); "
                       "set \"start_from\": \"when_needed\""));
    }
    SUBCASE("an emptied log whose next id is below the bookmark") {
        FakeSetup setup(itemsDatabase({}, R"(,"journal":{"next_id":1})"), itemsTable());
        TapRun run = runFrom(setup, 600);
        CHECK(run.exitCode == 1);
        CHECK(
            contains(run.stderrText, "diffgen was reset below its bookmark 600: its next id is 1"));
    }
    SUBCASE("without the id source, the newest event tells") {
        FakeSetup setup(itemsDatabase({1, 2}), itemsTable());
        TapRun run = runFrom(setup, 600);
        CHECK(run.exitCode == 1);
        CHECK(contains(run.stderrText,
                       "diffgen was reset below its bookmark 600: its newest event is id 2"));
    }
}

TEST_CASE("an emptied log whose ids go on has lost nothing") {
    FakeSetup setup(itemsDatabase({}, R"(,"journal":{"next_id":601})"), itemsTable());
    TapRun run = runFrom(setup, 600);
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(run.lastBookmark("items") == 600);
}

TEST_CASE("a stream replaying from the beginning of a log whose start is gone is warned") {
    FakeSetup setup(itemsDatabase(idRange(40, 42)), itemsTable());
    TapRun run = runTap({"--config", setup.configPath()});
    REQUIRE(run.exitCode == 0);
    CHECK(contains(run.stderrText,
                   "stream 'items': diffgen's oldest event is id 40, so rows last changed before "
                   "it are not replayed; \"start_from\": \"snapshot\" reads them from the table"));
}

TEST_CASE("a cached id sequence is refused unless the risk is accepted") {
    const std::string cached = R"(,"journal":{"id_source":"public.diffgen_id_seq","id_cache":50})";
    FakeSetup refused(itemsDatabase({1, 2}, cached), itemsTable());
    TapRun run = runTap({"--config", refused.configPath()});
    CHECK(run.exitCode == 1);
    CHECK(run.lines.empty());
    CHECK(contains(run.stderrText,
                   "diffgen.id comes from public.diffgen_id_seq with CACHE 50: a session holds "
                   "cached ids between its transactions and can commit one after the tap has "
                   "read past it, and that change is lost; run ALTER SEQUENCE "
                   "public.diffgen_id_seq CACHE 1, or set accept_cached_sequence to true to "
                   "accept the risk\n"));

    FakeSetup accepted(itemsDatabase({1, 2}, cached),
                       itemsTable() + R"(,"accept_cached_sequence":true)");
    run = runTap({"--config", accepted.configPath()});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(contains(run.stderrText, "with CACHE 50: a session holds cached ids"));
    CHECK(contains(run.stderrText, "(accept_cached_sequence is true)"));
    CHECK(run.records("items").size() == 2);
}

TEST_CASE("events under a partition's name are recognised") {
    const std::string events = R"({"tables":{)" + std::string(kItems) +
                               R"(},"diffgen":[[1,"items_eu","1","u","t1"]],)"
                               R"("journal":{"partitions":{"items":["public.items_eu"]}}})";
    FakeSetup setup(events, itemsTable());
    TapRun run = runTap({"--config", setup.configPath()});
    CHECK(run.exitCode == 1);
    CHECK(contains(run.stderrText,
                   "table 'items': diffgen has events under its partition 'items_eu', which no "
                   "stream reads; its triggers must journal the partitioned table's own name "
                   "'items'"));
}

TEST_CASE("a foreign key whose actions bypass the triggers is warned about") {
    FakeSetup setup(
        itemsDatabase({1}, R"(,"journal":{"bypassing":{"items":[["items_order_fk","orders",)"
                           R"("ON DELETE CASCADE"]]}})"),
        itemsTable());
    TapRun run = runTap({"--config", setup.configPath()});
    REQUIRE(run.exitCode == 0);
    CHECK(contains(run.stderrText,
                   "table 'items': foreign key items_order_fk (ON DELETE CASCADE from 'orders') "
                   "changes its rows without firing its triggers"));
}

TEST_CASE("a prune while the tap runs stops it with its last safe STATE") {
    // The second page read first deletes ids up to 6: ids 3 to 6 were never read.
    FakeSetup setup(itemsDatabase(idRange(1, 10), R"(,"prune_at_page":[2,6])"),
                    itemsTable() + R"(,"page_size":2,"max_page_size":2,"read_ahead":false)");
    TapRun run = runTap({"--config", setup.configPath()});
    CHECK(run.exitCode == 1);
    CHECK(contains(run.stderrText,
                   "stream 'items': diffgen no longer covers its bookmark 2: the oldest event "
                   "left is id 7, so the changes journalled at ids 3 to 6 were pruned before "
                   "they were read while the tap ran; set \"start_from\": \"when_needed\""));
    CHECK(run.lastBookmark("items") == 2);
}

TEST_CASE("a prune while the tap runs snapshots a when_needed stream again in the same run") {
    FakeSetup setup(itemsDatabase(idRange(1, 10), R"(,"prune_at_page":[2,6])"),
                    itemsTable(R"(,"start_from":"when_needed")") +
                        R"(,"page_size":2,"max_page_size":2,"read_ahead":false)");
    const std::string state = stateAt(setup, 0);
    TapRun run = runTap({"--config", setup.configPath(), "--state", state});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(contains(run.stderrText,
                   "were pruned before they were read while the tap ran; start_from is "
                   "when_needed, so the table is snapshotted again in this run"));
    CHECK(contains(run.stderrText, "snapshot of 'items' done: 3 rows"));
    // Events 1 and 2, then every row of the table, then the replay from the head.
    CHECK(run.records("items").size() == 5);
    CHECK(run.lastBookmark("items") == 10);
}

TEST_CASE("a plugin that cannot read the journal's facts runs, and says what is not checked") {
    FakeSetup setup(itemsDatabase(idRange(550, 600), R"(,"journal":"unsupported")"), itemsTable());
    TapRun run = runFrom(setup, 100);
    REQUIRE(run.exitCode == 0);
    CHECK(contains(run.stderrText,
                   "the dialect plugin fake cannot read the diffgen log's bounds: a pruned or "
                   "reset journal is not noticed"));
    CHECK(contains(run.stderrText, "the dialect plugin fake cannot inspect the journal"));
}

TEST_CASE("--check-journal reports a healthy journal and exits 0") {
    const std::string journal =
        R"(,"journal":{"id_source":"public.diffgen_id_seq","id_cache":1,"next_id":8,)"
        R"("highest_pruned_id":2,)"
        R"("triggers":{"items":[["items_diffgen","INSERT, UPDATE, DELETE","items",["id"]]]}})";
    FakeSetup setup(itemsDatabase({3, 5, 7}, journal), itemsTable());
    TapRun run =
        runTap({"--config", setup.configPath(), "--state", stateAt(setup, 5), "--check-journal"});
    std::string report;
    for (const auto& line : run.lines) report += line + "\n";
    MESSAGE(report);
    CHECK(run.exitCode == 0);
    CHECK(report ==
          "diffgen table diffgen (FakeDB 1.0)\n"
          "  events: ids 3 to 7; next id 8\n"
          "  prune record: diffgen_pruned, ids up to 2 deleted: prunes are known, not guessed\n"
          "  id source: public.diffgen_id_seq, one id at a time\n"
          "  horizon: running transactions are visible\n"
          "table items (stream items, journal name 'items')\n"
          "  key: id, the table's primary key\n"
          "  trigger items_diffgen on INSERT, UPDATE, DELETE writes 'items'\n"
          "  state: bookmark 5, 2 ids behind the newest event\n"
          "  oldest event: id 3\n"
          "no problem found\n");
}

TEST_CASE("--check-journal finds every problem that can lose changes and exits 1") {
    const std::string journal =
        R"(,"journal":{"id_source":"public.diffgen_id_seq","id_cache":20,)"
        R"("partitions":{"items":["public.items_eu"]},)"
        R"("bypassing":{"items":[["items_order_fk","orders","ON DELETE CASCADE"]]},)"
        R"("triggers":{"items":[["items_diffgen_i","INSERT","items_eu",["code"]]]}})";
    const std::string database = R"({"tables":{)" + std::string(kItems) +
                                 R"(},"diffgen":[[550,"items","1","u","t"],)"
                                 R"([551,"items_eu","2","u","t"]])" +
                                 journal + "}";
    FakeSetup setup(database, itemsTable());
    TapRun run =
        runTap({"--config", setup.configPath(), "--state", stateAt(setup, 100), "--check-journal"});
    std::string report;
    for (const auto& line : run.lines) report += line + "\n";
    MESSAGE(report);
    CHECK(run.exitCode == 1);
    CHECK(contains(report, "  PROBLEM: diffgen.id comes from public.diffgen_id_seq with CACHE 20"));
    CHECK(contains(report,
                   "  PROBLEM: table 'items': trigger items_diffgen_i on INSERT writes 'items_eu', "
                   "not the journal name 'items'"));
    CHECK(contains(report,
                   "  PROBLEM: table 'items': trigger items_diffgen_i on INSERT journals key "
                   "column(s) (code) into diffgen.table_id, but pk_column is (id)"));
    CHECK(
        contains(report, "  WARNING: table 'items': no trigger journals UPDATEs of this table\n"));
    CHECK(
        contains(report, "  WARNING: table 'items': no trigger journals DELETEs of this table\n"));
    CHECK(contains(report, "  partitions: public.items_eu\n"));
    CHECK(contains(report, "  PROBLEM: diffgen has events under a partition's name (from id 551)"));
    CHECK(contains(report,
                   "  WARNING: table 'items': foreign key items_order_fk (ON DELETE CASCADE from "
                   "'orders') changes its rows without firing its triggers"));
    CHECK(contains(report, "  PROBLEM: stream 'items': diffgen no longer covers its bookmark 100"));
    CHECK(contains(report, "5 problems that can lose changes\n"));
}

TEST_CASE("a trigger that journals another key than pk_column stops the run before any output") {
    const std::string journal =
        R"(,"journal":{"triggers":{"items":[["items_diffgen","INSERT, UPDATE, DELETE","items",)"
        R"(["note"]]]}})";
    FakeSetup setup(itemsDatabase({1, 2}, journal), itemsTable());
    TapRun run = runTap({"--config", setup.configPath()});
    CHECK(run.exitCode == 1);
    CHECK(run.lines.empty());
    CHECK(contains(run.stderrText,
                   "table 'items': trigger items_diffgen on INSERT, UPDATE, DELETE journals key "
                   "column(s) (note) into diffgen.table_id, but pk_column is (id)"));
}

TEST_CASE("with a prune record, ids rolled back after a prune of everything read lose nothing") {
    // Events 1..100 read and deleted, id 101 rolled back: the record says 100 was the last
    // deleted, so the gap at 101 is no prune.
    const std::string journal = R"(,"journal":{"next_id":103,"highest_pruned_id":100})";
    FakeSetup setup(itemsDatabase({102}, journal), itemsTable());
    TapRun run = runFrom(setup, 100);
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(run.records("items").size() == 1);

    // Without the record the same gap is taken for a prune.
    FakeSetup guessing(itemsDatabase({102}, R"(,"journal":{"next_id":103})"), itemsTable());
    TapRun stopped = runFrom(guessing, 100);
    CHECK(stopped.exitCode == 1);
    CHECK(contains(stopped.stderrText, "the changes journalled at ids 101 to 101 were pruned"));
}

TEST_CASE("with a prune record, a log emptied of unread events stops the run") {
    const std::string journal = R"(,"journal":{"next_id":151,"highest_pruned_id":150})";
    FakeSetup setup(itemsDatabase({}, journal), itemsTable());
    TapRun run = runFrom(setup, 100);
    CHECK(run.exitCode == 1);
    CHECK(contains(run.stderrText,
                   "stream 'items': diffgen no longer covers its bookmark 100: its prune record "
                   "says events up to id 150 were deleted, so the changes journalled at ids 101 "
                   "to 150 were pruned before they were read"));
}

TEST_CASE("a prune record from before the ids restarted is warned about, and prunes are guessed") {
    // Without a next id (MySQL 8), a record past the newest event is an older numbering's.
    FakeSetup setup(itemsDatabase(idRange(1, 10), R"(,"journal":{"highest_pruned_id":500})"),
                    itemsTable());
    TapRun run = runFrom(setup, 5);
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(contains(run.stderrText,
                   "the prune record diffgen_pruned says ids up to 500 were deleted, past the "
                   "newest event 10: it is from before the ids restarted, so prunes are told by "
                   "gaps again; run UPDATE diffgen_pruned SET highest_pruned_id = 0"));
    CHECK(run.records("items").size() == 3);
}

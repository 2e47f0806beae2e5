// journal_bounds and inspect_journal on SQLite: the log's bounds as it is filled, pruned, emptied
// and reset, for AUTOINCREMENT ids, plain rowids and ids SQLite does not hand out; the journal
// triggers and the names they write; and that a foreign key's ON DELETE CASCADE fires the
// child's triggers, so no foreign key bypasses the journal.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sqlite_test_support.hpp"

using namespace tapdiffgen;
using testing::boundsOf;
using testing::triggerLines;

namespace {

core::TableRef unqualified(const std::string& name) { return {"", name}; }

void journal(sqlitetest::TempDatabase& db, const std::string& table, int rows) {
    for (int i = 0; i < rows; ++i) {
        db.exec("INSERT INTO " + table + " (tablename, table_id, op) VALUES ('t', '1', 'i')");
    }
}

constexpr const char* kLogColumns = "tablename TEXT NOT NULL, table_id TEXT NOT NULL, op TEXT";

// The three triggers of packaging/diffgen/sqlite.sql for table @T, keyed by id.
constexpr const char* kShippedTriggers = R"SQL(
CREATE TRIGGER @T_diffgen_i AFTER INSERT ON @T BEGIN
    INSERT INTO diffgen (tablename, table_id, op) VALUES ('@T', NEW.id, 'i');
END;
CREATE TRIGGER @T_diffgen_u AFTER UPDATE ON @T BEGIN
    -- An update that changes the key removes the old row: journal that as a delete.
    INSERT INTO diffgen (tablename, table_id, op)
        SELECT '@T', OLD.id, 'd' WHERE OLD.id IS NOT NEW.id;
    INSERT INTO diffgen (tablename, table_id, op) VALUES ('@T', NEW.id, 'u');
END;
CREATE TRIGGER @T_diffgen_d AFTER DELETE ON @T BEGIN
    INSERT INTO diffgen (tablename, table_id, op) VALUES ('@T', OLD.id, 'd');
END;
)SQL";

std::string shippedTriggers(const std::string& table) {
    std::string sql = kShippedTriggers;
    for (size_t at = sql.find("@T"); at != std::string::npos; at = sql.find("@T", at)) {
        sql.replace(at, 2, table);
        at += table.size();
    }
    return sql;
}

}  // namespace

TEST_CASE("sqlite journal bounds: AUTOINCREMENT ids go on after pruning, anew after a reset") {
    sqlitetest::TempDatabase db;
    const std::string create =
        std::string("CREATE TABLE diffgen (id INTEGER PRIMARY KEY AUTOINCREMENT, ") + kLogColumns +
        ")";
    db.exec(create);
    auto connection = sqlitetest::connect(db.path());
    // The reset forgets the counter; DROP TABLE forgets it too.
    testing::checkBoundsThroughLife(
        *connection, "diffgen",
        {[&](const std::string& sql) { db.exec(sql); },
         "DELETE FROM diffgen; DELETE FROM sqlite_sequence WHERE name = 'diffgen'",
         "DROP TABLE diffgen; " + create});
    // Deleting the newest ids does not make SQLite hand them out again.
    db.exec("DELETE FROM diffgen");
    journal(db, "diffgen", 3);
    db.exec("DELETE FROM diffgen WHERE id = 4");
    CHECK(boundsOf(*connection, "diffgen") == "2..3 next 5");
}

TEST_CASE("sqlite journal bounds: plain rowids are reused, other ids are not SQLite's") {
    sqlitetest::TempDatabase db;
    // No AUTOINCREMENT table anywhere: the database has no sqlite_sequence.
    db.exec(std::string("CREATE TABLE rowids (id INTEGER PRIMARY KEY, ") + kLogColumns +
            "); CREATE TABLE texts (id TEXT PRIMARY KEY, " + kLogColumns +
            "); CREATE TABLE nobody (id INTEGER PRIMARY KEY, " + kLogColumns + ") WITHOUT ROWID");
    journal(db, "rowids", 3);
    db.exec("INSERT INTO nobody VALUES (7, 't', '1', 'i')");
    auto connection = sqlitetest::connect(db.path());
    CHECK(boundsOf(*connection, "rowids") == "1..3 next 4");
    db.exec("DELETE FROM rowids WHERE id = 3");
    CHECK(boundsOf(*connection, "rowids") == "1..2 next 3");
    db.exec("DELETE FROM rowids");
    CHECK(boundsOf(*connection, "rowids") == "empty next 1");
    CHECK(boundsOf(*connection, "texts") == "empty next unknown");
    CHECK(boundsOf(*connection, "nobody") == "7..7 next unknown");

    auto sourceOf = [&](const std::string& table) {
        auto facts = connection->inspectJournal(unqualified(table), {}, false);
        REQUIRE(facts.has_value());
        CHECK(facts->idCache == 1);
        CHECK_FALSE(facts->horizonProblem.has_value());
        return facts->idSource.value_or("(none)");
    };
    CHECK(sourceOf("rowids") == "main.rowids rowid");
    CHECK(sourceOf("texts") == "(none)");
    CHECK(sourceOf("nobody") == "(none)");
    db.exec(std::string("CREATE TABLE diffgen (id INTEGER PRIMARY KEY AUTOINCREMENT, ") +
            kLogColumns + ")");
    CHECK(sourceOf("diffgen") == "main.sqlite_sequence");
}

TEST_CASE("sqlite journal: ON DELETE CASCADE and ON UPDATE SET NULL fire the child's triggers") {
    sqlitetest::TempDatabase db;
    db.exec(std::string("CREATE TABLE diffgen (id INTEGER PRIMARY KEY AUTOINCREMENT, ") +
            kLogColumns + R"SQL();
CREATE TABLE parent (id INTEGER PRIMARY KEY);
CREATE TABLE child (id INTEGER PRIMARY KEY,
                    p INTEGER REFERENCES parent (id) ON DELETE CASCADE ON UPDATE SET NULL);
)SQL" + shippedTriggers("child"));
    db.exec(R"SQL(
PRAGMA foreign_keys = ON;
INSERT INTO parent VALUES (1), (2);
INSERT INTO child VALUES (10, 1), (11, 2);
DELETE FROM diffgen;
DELETE FROM parent WHERE id = 1;
UPDATE parent SET id = 3 WHERE id = 2;
)SQL");
    auto connection = sqlitetest::connect(db.path());
    auto page = connection->readDiffgenPage(unqualified("diffgen"), 0, INT64_MAX, 10, {"child"});
    REQUIRE(page.size() == 2);
    CHECK(std::string(page[0].table_id, page[0].table_id_size) == "10");
    CHECK(page[0].op == 'd');
    CHECK(std::string(page[1].table_id, page[1].table_id_size) == "11");
    CHECK(page[1].op == 'u');
    auto facts = connection->inspectJournal(unqualified("diffgen"), {unqualified("child")}, true);
    REQUIRE(facts.has_value());
    CHECK(facts->tables.at(0).bypassingForeignKeys.empty());
    CHECK(facts->tables.at(0).partitions.empty());
}

TEST_CASE("sqlite inspect journal: journal triggers and the names they write, for 600 tables") {
    sqlitetest::TempDatabase db;
    // One transaction: a commit (and its sync) per table would take a minute.
    std::string setup = std::string(
                            "BEGIN; CREATE TABLE diffgen (id INTEGER PRIMARY KEY "
                            "AUTOINCREMENT, ") +
                        kLogColumns + "); CREATE TABLE audit (id INTEGER);";
    std::vector<core::TableRef> tables;
    for (int i = 1; i <= 600; ++i) {
        const std::string table = "t" + std::to_string(i);
        setup += "CREATE TABLE " + table + " (id INTEGER PRIMARY KEY);" + shippedTriggers(table);
        tables.push_back(unqualified(i % 2 == 0 ? table : "T" + std::to_string(i)));
    }
    setup += R"SQL(
CREATE TABLE "Odd Name" (id INTEGER PRIMARY KEY);
CREATE TRIGGER "odd insert" AFTER INSERT ON "Odd Name" BEGIN
    INSERT OR IGNORE INTO [diffgen] (op, table_id, tablename)
        VALUES ('i', NEW.id, 'sales.odd' COLLATE NOCASE);
END;
CREATE TRIGGER odd_update AFTER UPDATE OF id ON "Odd Name" WHEN NEW.id > 0 BEGIN
    INSERT INTO diffgen (tablename, table_id, op) VALUES ('odd' || '', NEW.id, 'u');
END;
CREATE TRIGGER odd_delete AFTER DELETE ON "Odd Name" BEGIN
    INSERT INTO audit (id) VALUES (OLD.id);
END;
COMMIT;
)SQL";
    db.exec(setup);
    tables.push_back(unqualified("Odd Name"));
    tables.push_back(unqualified("missing"));
    auto connection = sqlitetest::connect(db.path());
    auto facts = connection->inspectJournal(unqualified("diffgen"), tables, true);
    REQUIRE(facts.has_value());
    REQUIRE(facts->tables.size() == tables.size());
    CHECK(facts->idSource == "main.sqlite_sequence");
    CHECK(facts->idCache == 1);
    for (int i = 1; i <= 600; ++i) {
        const std::string table = "t" + std::to_string(i);
        CAPTURE(table);
        CHECK(triggerLines(facts->tables[static_cast<size_t>(i - 1)]) ==
              std::vector<std::string>{table + "_diffgen_d DELETE -> " + table,
                                       table + "_diffgen_i INSERT -> " + table,
                                       table + "_diffgen_u UPDATE -> " + table});
    }
    CHECK(triggerLines(facts->tables[600]) ==
          std::vector<std::string>{"odd insert INSERT -> sales.odd",
                                   "odd_update UPDATE -> (unknown)"});
    CHECK(facts->tables[601].triggers.empty());
    facts = connection->inspectJournal(unqualified("diffgen"), tables, false);
    REQUIRE(facts.has_value());
    CHECK(facts->tables[0].triggers.empty());
}

TEST_CASE("sqlite journal: the shipped prune record, and the key columns triggers journal") {
    sqlitetest::TempDatabase db;
    std::ifstream file(TDG_DIFFGEN_SQL_DIR "/sqlite.sql");
    std::stringstream shipped;
    shipped << file.rdbuf();
    db.exec(shipped.str());
    db.exec("CREATE TABLE t1 (id INTEGER PRIMARY KEY);" + shippedTriggers("t1") +
            R"SQL(CREATE TABLE lines (a INTEGER, b INTEGER, PRIMARY KEY (a, b));
CREATE TRIGGER lines_diffgen_i AFTER INSERT ON lines BEGIN
    INSERT INTO diffgen (tablename, table_id, op)
    VALUES ('lines', json_array(NEW."a", NEW."b"), 'i');
END;
CREATE TRIGGER lines_other AFTER DELETE ON lines BEGIN
    INSERT INTO diffgen (tablename, table_id, op) VALUES ('lines', OLD.b, 'd');
END;)SQL");
    db.exec("INSERT INTO t1 VALUES (1), (2), (3)");
    auto connection = sqlitetest::connect(db.path());
    std::optional<core::JournalBounds> bounds = connection->journalBounds(unqualified("diffgen"));
    REQUIRE(bounds.has_value());
    CHECK(bounds->highestPrunedId == 0);
    db.exec("DELETE FROM diffgen WHERE id <= 2");
    CHECK(connection->journalBounds(unqualified("diffgen"))->highestPrunedId == 2);
    db.exec("DELETE FROM diffgen WHERE id = 1");  // below the record: it stays
    CHECK(connection->journalBounds(unqualified("diffgen"))->highestPrunedId == 2);
    db.exec("DROP TRIGGER diffgen_note_pruned; DROP TABLE diffgen_pruned");
    CHECK_FALSE(connection->journalBounds(unqualified("diffgen"))->highestPrunedId.has_value());

    auto facts = connection->inspectJournal(unqualified("diffgen"),
                                            {unqualified("t1"), unqualified("lines")}, true);
    REQUIRE(facts.has_value());
    REQUIRE(facts->tables[0].triggers.size() == 3);
    for (const core::JournalTrigger& trigger : facts->tables[0].triggers) {
        CAPTURE(trigger.name);
        CHECK(trigger.keyColumns == std::vector<std::string>{"id"});
    }
    REQUIRE(facts->tables[1].triggers.size() == 2);
    CHECK(facts->tables[1].triggers[0].keyColumns == std::vector<std::string>{"a", "b"});
    CHECK(facts->tables[1].triggers[1].keyColumns == std::vector<std::string>{"b"});
}

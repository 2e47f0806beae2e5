// The shipped triggers (packaging/diffgen/) under the application's own writes: each case writes
// rows, lets the tap replay them into a replica, changes them, replays again from the last
// STATE, and compares the replica with the source.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "dialect_fixture.hpp"

using namespace tapdiffgen::testing;

namespace {

// A target the tap keeps up to date, run after run from the last STATE. A row is its key
// values and one more column, joined by '|', as the source query renders it too.
class KeyedReplica {
public:
    KeyedReplica(const JournalledSchema& schema, std::string table, std::vector<std::string> key,
                 std::string column)
        : schema_(schema),
          table_(std::move(table)),
          key_(std::move(key)),
          column_(std::move(column)) {}

    void sync() {
        std::vector<std::string> args = {"--config", schema_.writeConfig(dir_, {table_})};
        if (!state_.empty()) {
            args.push_back("--state");
            args.push_back(dir_.write("state.json", state_));
        }
        lastRun_ = runTapBinary(args);
        const TapRun& run = lastRun_;
        REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
        state_ = run.applyAsTarget(
            table_,
            [&](const Poco::JSON::Object::Ptr& record) {
                std::string key;
                for (const auto& column : key_) key += record->get(column).toString() + "|";
                if (record->getValue<bool>("is_deleted")) {
                    rows_.erase(key);
                } else {
                    rows_[key] =
                        key + (record->isNull(column_) ? "NULL" : record->get(column_).toString());
                }
            },
            state_);
    }

    /// Whether a line of the last run holds `fragment`.
    bool lastRunHas(const std::string& fragment) const {
        return std::any_of(lastRun_.lines.begin(), lastRun_.lines.end(), [&](const auto& line) {
            return line.find(fragment) != std::string::npos;
        });
    }

    std::set<std::string> rows() const {
        std::set<std::string> rows;
        for (const auto& [key, row] : rows_) rows.insert(row);
        return rows;
    }

    std::set<std::string> source() const {
        std::string columns;
        for (const auto& column : key_) columns += column + ", ";
        std::set<std::string> rows;
        for (const auto& row :
             queryColumn(schema_.env(), "SELECT CONCAT_WS('|', " + columns + "COALESCE(" + column_ +
                                            ", 'NULL')) FROM " + table_)) {
            rows.insert(row.value_or("NULL"));
        }
        return rows;
    }

private:
    const JournalledSchema& schema_;
    std::string table_;
    std::vector<std::string> key_;
    std::string column_;
    ScratchDir dir_;
    std::string state_;
    TapRun lastRun_;
    std::map<std::string, std::string> rows_;
};

void checkSynced(KeyedReplica& replica) {
    replica.sync();
    CHECK(replica.rows() == replica.source());
}

// Writes `changes`, checks that they journalled `deletes` deletes in all, and syncs each
// replica.
void changeAndSync(const JournalledSchema& schema, const std::vector<std::string>& changes,
                   int deletes, const std::vector<KeyedReplica*>& replicas) {
    for (const auto& change : changes) schema.exec(change);
    CHECK(queryScalar(schema.env(), "SELECT COUNT(*) FROM " + schema.diffgenTable() +
                                        " WHERE op = 'd'") == std::to_string(deletes));
    for (KeyedReplica* replica : replicas) checkSynced(*replica);
}

}  // namespace

TEST_CASE("postgres: a key changed only in letter case is a key change (citext, ICU)") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    JournalledSchema schema(db, "jt_case");
    schema.exec("CREATE EXTENSION IF NOT EXISTS citext");
    schema.exec(
        "CREATE COLLATION IF NOT EXISTS jt_case_insensitive "
        "(provider = icu, locale = 'und-u-ks-level2', deterministic = false)");
    schema.createTable("cit", "code citext PRIMARY KEY, note text", "code");
    schema.createTable("icu",
                       "code text COLLATE jt_case_insensitive NOT NULL, n integer NOT NULL, "
                       "note text, PRIMARY KEY (code, n)",
                       "code,n");
    const std::string cit = schema.table("cit");
    const std::string icu = schema.table("icu");
    schema.exec("INSERT INTO " + cit + " VALUES ('Abc', 'one'), ('xyz', 'two')");
    schema.exec("INSERT INTO " + icu + " VALUES ('Abc', 1, 'one'), ('xyz', 2, 'two')");
    KeyedReplica citReplica(schema, cit, {"code"}, "note");
    KeyedReplica icuReplica(schema, icu, {"code", "n"}, "note");
    changeAndSync(schema, {}, 0, {&citReplica, &icuReplica});
    changeAndSync(schema,
                  {"UPDATE " + cit + " SET code = 'abc' WHERE code = 'Abc'",
                   "UPDATE " + cit + " SET code = 'XYZ', note = 'two, renamed' WHERE code = 'xyz'",
                   "UPDATE " + icu + " SET code = 'abc' WHERE code = 'Abc'",
                   "UPDATE " + icu + " SET code = 'XYZ', note = 'two, renamed' WHERE n = 2"},
                  4, {&citReplica, &icuReplica});
}

// A json column may hold what jsonb cannot: \u0000 and lone surrogates.
TEST_CASE("postgres: a json column holding \\u0000 journals, and the row replicates") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    JournalledSchema schema(db, "jt_json");
    schema.createTable("docs", "id integer PRIMARY KEY, doc json, note text", "id");
    const std::string docs = schema.table("docs");
    const std::string compatible = schema.table("compatible");
    schema.exec("DROP TABLE IF EXISTS " + compatible);
    schema.exec("CREATE TABLE " + compatible + " (id integer PRIMARY KEY, doc json, note text)");
    // The compatible path, diffgen_journal, as installations before diffgen_attach have it.
    schema.exec("CREATE TRIGGER dg AFTER INSERT OR UPDATE OR DELETE ON " + compatible +
                " FOR EACH ROW EXECUTE FUNCTION jt_json_diffgen_journal('id')");
    for (const std::string& table : {docs, compatible}) {
        schema.exec("INSERT INTO " + table +
                    R"( VALUES (1, '{"a": "\u0000"}', 'one'), (2, '[]', 'two'))");
    }
    KeyedReplica replica(schema, docs, {"id"}, "note");
    checkSynced(replica);
    CHECK(replica.lastRunHas(R"("id":1,"doc":{"a": "\u0000"},"note":"one")"));
    for (const std::string& table : {docs, compatible}) {
        schema.exec("UPDATE " + table +
                    R"( SET doc = '"\u0000 again"', note = 'two, changed' WHERE id = 2)");
        schema.exec("DELETE FROM " + table + " WHERE id = 1");
        // A lone surrogate journals too (the row is gone before the tap reads it: the test's
        // JSON parser would not take the tap's verbatim copy of it).
        schema.exec("INSERT INTO " + table + R"( VALUES (3, '["\ud800"]', 'three'))");
        schema.exec("UPDATE " + table + R"( SET doc = '"\udc00"' WHERE id = 3)");
        schema.exec("DELETE FROM " + table + " WHERE id = 3");
    }
    checkSynced(replica);
    CHECK(replica.lastRunHas(R"("id":2,"doc":"\u0000 again","note":"two, changed")"));

    schema.journal(compatible, "id");
    KeyedReplica compatibleReplica(schema, compatible, {"id"}, "note");
    checkSynced(compatibleReplica);
    CHECK(queryScalar(db, "SELECT string_agg(table_id || op, ',' ORDER BY id) FROM " +
                              schema.diffgenTable() + " WHERE tablename = '" + compatible + "'") ==
          "1i,2i,2u,1d,3i,3u,3d");
}

TEST_CASE("postgres: a partitioned table journals its partitions' rows under its own name") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    JournalledSchema schema(db, "jt_parts");
    const std::string parts = schema.table("parts");
    const std::string compatible = schema.table("compatible");
    for (const std::string& table : {parts, compatible}) {
        schema.exec("DROP TABLE IF EXISTS " + table);
        schema.exec("CREATE TABLE " + table +
                    " (id integer, region text, note text, PRIMARY KEY (id, region)) "
                    "PARTITION BY LIST (region)");
        schema.exec("CREATE TABLE " + table + "_eu PARTITION OF " + table +
                    " FOR VALUES IN ('eu')");
        schema.exec("CREATE TABLE " + table + "_us PARTITION OF " + table +
                    " FOR VALUES IN ('us')");
    }
    schema.journal(parts, "id,region");
    // The compatible path, diffgen_journal, as installations before diffgen_attach have it.
    schema.exec("CREATE TRIGGER dg AFTER INSERT OR UPDATE OR DELETE ON " + compatible +
                " FOR EACH ROW EXECUTE FUNCTION jt_parts_diffgen_journal('id,region')");
    // A partition made after the triggers gets them too.
    for (const std::string& table : {parts, compatible}) {
        schema.exec("CREATE TABLE " + table + "_asia PARTITION OF " + table +
                    " FOR VALUES IN ('asia')");
        schema.exec("INSERT INTO " + table +
                    " VALUES (1, 'eu', 'one'), (2, 'eu', 'two'), (3, 'us', 'three'), "
                    "(4, 'asia', 'four')");
    }
    KeyedReplica partsReplica(schema, parts, {"id", "region"}, "note");
    checkSynced(partsReplica);
    CHECK(partsReplica.rows().size() == 4);

    for (const std::string& table : {parts, compatible}) {
        // Moves to another partition: a delete there and an insert here.
        schema.exec("UPDATE " + table + " SET region = 'us', note = 'moved' WHERE id = 2");
        schema.exec("UPDATE " + table + " SET note = 'changed' WHERE id = 3");
        schema.exec("DELETE FROM " + table + " WHERE id = 4");
        schema.exec("INSERT INTO " + table + " VALUES (5, 'asia', 'five')");
    }
    checkSynced(partsReplica);
    CHECK(queryScalar(db, "SELECT string_agg(DISTINCT tablename, ',' ORDER BY tablename) FROM " +
                              schema.diffgenTable()) == compatible + "," + parts);

    // The compatible path's events, read as the tap reads another table's.
    schema.journal(compatible, "id,region");
    KeyedReplica compatibleReplica(schema, compatible, {"id", "region"}, "note");
    checkSynced(compatibleReplica);
}

TEST_CASE("postgres: TRUNCATE journals a delete for every row it removes") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    JournalledSchema schema(db, "jt_trunc");
    schema.createTable("items", "id integer PRIMARY KEY, note text", "id");
    const std::string items = schema.table("items");
    schema.exec("INSERT INTO " + items + " VALUES (1, 'one'), (2, 'two'), (3, 'three')");
    KeyedReplica replica(schema, items, {"id"}, "note");
    checkSynced(replica);
    schema.exec("TRUNCATE " + items);
    schema.exec("INSERT INTO " + items + " VALUES (2, 'two again')");
    checkSynced(replica);
    CHECK(replica.rows() == std::set<std::string>{"2|two again"});
}

TEST_CASE("postgres: diffgen_attach checks its table and key, detach and re-attach") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    JournalledSchema schema(db, "jt_attach");
    schema.createTable("items", "id integer PRIMARY KEY, note text", "id");
    const std::string items = schema.table("items");
    const std::string journal = "jt_attach_diffgen_";
    auto errorOf = [&](const std::string& sql) -> std::string {
        try {
            schema.exec(sql);
        } catch (const std::runtime_error& error) {
            return error.what();
        }
        return "";
    };
    CHECK(errorOf("SELECT " + journal + "attach('" + items + "', 'id, nope')")
              .find("jt_attach_diffgen_attach: table " + items + " has no column nope") !=
          std::string::npos);
    CHECK(errorOf("SELECT " + journal + "attach('" + items + "_missing', 'id')")
              .find("relation \"" + items + "_missing\" does not exist") != std::string::npos);

    // A trigger of the compatible path is replaced, not doubled.
    schema.exec("SELECT " + journal + "detach('" + items + "')");
    schema.exec("CREATE TRIGGER old_dg AFTER INSERT OR UPDATE OR DELETE ON " + items +
                " FOR EACH ROW EXECUTE FUNCTION " + journal + "journal('id')");
    schema.exec("SELECT " + journal + "attach('" + items + "', ' id ', 'renamed')");
    CHECK(queryScalar(db,
                      "SELECT string_agg(tgname, ',' ORDER BY tgname) FROM pg_trigger "
                      "WHERE tgrelid = '" +
                          items + "'::regclass") == "jt_attach_diffgen,jt_attach_diffgen_truncate");
    schema.exec("INSERT INTO " + items + " VALUES (1, 'one')");
    CHECK(queryScalar(db,
                      "SELECT string_agg(tablename || ':' || table_id || ':' || op, ',') "
                      "FROM " +
                          schema.diffgenTable()) == "renamed:1:i");

    schema.exec("SELECT " + journal + "detach('" + items + "')");
    schema.exec("INSERT INTO " + items + " VALUES (2, 'two')");
    CHECK(queryScalar(db, "SELECT count(*) FROM " + schema.diffgenTable()) == "1");
    CHECK(errorOf("SELECT " + journal + "detach('" + items + "')")
              .find("jt_attach_diffgen_detach: table " + items + " has no trigger of " + journal +
                    "attach") != std::string::npos);
}

TEST_CASE("mysql: a key changed only in letter case or trailing blanks is a key change") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    JournalledSchema schema(db, "jt_case");
    schema.createTable("codes", "code VARCHAR(20) NOT NULL PRIMARY KEY, note VARCHAR(40)", "code");
    schema.createTable("lines",
                       "order_id INTEGER NOT NULL, line_no VARCHAR(10) NOT NULL, note VARCHAR(40), "
                       "PRIMARY KEY (order_id, line_no)",
                       "order_id,line_no");
    const std::string codes = schema.table("codes");
    const std::string lines = schema.table("lines");
    schema.exec("INSERT INTO " + codes + " VALUES ('Abc', 'one'), ('a', 'two'), ('xyz', 'three')");
    schema.exec("INSERT INTO " + lines + " VALUES (1, 'Abc', 'one'), (2, 'a', 'two')");
    KeyedReplica codesReplica(schema, codes, {"code"}, "note");
    KeyedReplica linesReplica(schema, lines, {"order_id", "line_no"}, "note");
    changeAndSync(schema, {}, 0, {&codesReplica, &linesReplica});
    changeAndSync(schema,
                  {"UPDATE " + codes + " SET code = 'abc' WHERE code = 'Abc'",
                   "UPDATE " + codes + " SET code = 'a ' WHERE code = 'a'",
                   "UPDATE " + codes + " SET note = 'three, changed' WHERE code = 'xyz'",
                   "UPDATE " + lines + " SET line_no = 'abc' WHERE order_id = 1",
                   "UPDATE " + lines + " SET line_no = 'a ' WHERE order_id = 2"},
                  4, {&codesReplica, &linesReplica});
    CHECK(codesReplica.rows() == std::set<std::string>{"a |two", "abc|one", "xyz|three, changed"});
}

TEST_CASE("mysql: a key of 1,000 characters journals") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    JournalledSchema schema(db, "jt_long");
    schema.createTable(
        "docs", "code VARCHAR(1000) CHARACTER SET ascii NOT NULL PRIMARY KEY, note TEXT", "code");
    const std::string docs = schema.table("docs");
    const std::string code(1000, 'k');
    schema.exec("INSERT INTO " + docs + " VALUES ('" + code + "', 'long'), ('short', 'short')");
    KeyedReplica replica(schema, docs, {"code"}, "note");
    checkSynced(replica);
    schema.exec("UPDATE " + docs + " SET code = CONCAT(code, 'x') WHERE code = 'short'");
    schema.exec("UPDATE " + docs + " SET note = 'longer' WHERE code = '" + code + "'");
    checkSynced(replica);
    schema.exec("DELETE FROM " + docs + " WHERE code = '" + code + "'");
    checkSynced(replica);
    CHECK(replica.rows() == std::set<std::string>{"shortx|short"});
}

// The workaround packaging/diffgen/mysql.sql documents for foreign-key actions, which fire no
// triggers: a trigger on the parent makes the change first, or journals what the cascade did.
TEST_CASE("mysql: cascading foreign keys reach diffgen through triggers on the parent") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    JournalledSchema schema(db, "jt_fk");
    const std::string orders = schema.table("orders");
    const std::string lines = schema.table("lines");
    const std::string invoices = schema.table("invoices");
    schema.exec("DROP TABLE IF EXISTS " + lines + ", " + invoices);
    schema.createTable("orders", "id INTEGER PRIMARY KEY, note VARCHAR(20)", "id");
    schema.createTable("lines",
                       "order_id INTEGER NOT NULL, line_no VARCHAR(5) NOT NULL, note VARCHAR(20), "
                       "PRIMARY KEY (order_id, line_no), FOREIGN KEY (order_id) REFERENCES " +
                           orders + " (id) ON DELETE CASCADE ON UPDATE CASCADE",
                       "order_id,line_no");
    schema.createTable("invoices",
                       "id INTEGER PRIMARY KEY, order_id INTEGER, FOREIGN KEY (order_id) "
                       "REFERENCES " +
                           orders + " (id) ON DELETE SET NULL",
                       "id");
    schema.exec("CREATE TRIGGER " + orders + "_delete_lines BEFORE DELETE ON " + orders +
                " FOR EACH ROW DELETE FROM " + lines + " WHERE order_id = OLD.id");
    schema.exec("CREATE TRIGGER " + orders + "_unlink_invoices BEFORE DELETE ON " + orders +
                " FOR EACH ROW UPDATE " + invoices +
                " SET order_id = NULL WHERE order_id = OLD.id");
    schema.exec("CREATE TRIGGER " + orders + "_journal_lines AFTER UPDATE ON " + orders +
                " FOR EACH ROW INSERT INTO " + schema.diffgenTable() +
                " (tablename, table_id, op) SELECT '" + lines +
                "', JSON_ARRAY(OLD.id, line_no), 'd' FROM " + lines +
                " WHERE order_id = NEW.id AND NOT (OLD.id <=> NEW.id) UNION ALL SELECT '" + lines +
                "', JSON_ARRAY(order_id, line_no), 'u' FROM " + lines +
                " WHERE order_id = NEW.id AND NOT (OLD.id <=> NEW.id)");
    schema.exec("INSERT INTO " + orders + " VALUES (1, 'one'), (2, 'two'), (3, 'three')");
    schema.exec("INSERT INTO " + lines +
                " VALUES (1, 'a', 'a'), (1, 'b', 'b'), (2, 'a', 'a'), (3, 'a', 'a')");
    schema.exec("INSERT INTO " + invoices + " VALUES (10, 1), (20, 2)");
    KeyedReplica linesReplica(schema, lines, {"order_id", "line_no"}, "note");
    KeyedReplica invoicesReplica(schema, invoices, {"id"}, "order_id");
    checkSynced(linesReplica);
    checkSynced(invoicesReplica);

    schema.exec("DELETE FROM " + orders + " WHERE id = 1");
    schema.exec("UPDATE " + orders + " SET id = 30 WHERE id = 3");
    checkSynced(linesReplica);
    checkSynced(invoicesReplica);
    CHECK(linesReplica.rows() == std::set<std::string>{"2|a|a", "30|a|a"});
    CHECK(invoicesReplica.rows() == std::set<std::string>{"10|NULL", "20|2"});
}

// Triggers of an older version journalled keys as the database prints them (PostgreSQL:
// to_jsonb(k) #>> '{}', \x0102 for a bytea; MariaDB: the value itself, a space in a
// datetime). Running the shipped file again rewrites them in place to the canonical texts;
// the events already journalled in the old form still replay, and so do the new ones.
TEST_CASE("postgres: running postgres.sql again upgrades attached tables' key texts") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    JournalledSchema schema(db, "key_upgrade");
    schema.createTable("blobs", "k bytea PRIMARY KEY, at timestamp(6) NOT NULL, note text", "k");
    const std::string blobs = schema.table("blobs");
    // The function an older diffgen_attach wrote for this table, inserts only.
    schema.exec("CREATE OR REPLACE FUNCTION " + blobs +
                "_diffgen() RETURNS trigger LANGUAGE plpgsql AS $body$ BEGIN IF TG_OP = 'INSERT' "
                "THEN\n    INSERT INTO public." +
                schema.diffgenTable() + " (tablename, table_id, op) VALUES ('" + blobs +
                "', (to_jsonb(NEW.\"k\") #>> '{}'), 'i');\nEND IF; RETURN NULL; END $body$");
    schema.exec("INSERT INTO " + blobs + " VALUES ('\\x0102', '2024-01-01 10:00:00.12', 'old')");
    schema.installAgain();
    schema.exec("INSERT INTO " + blobs + " VALUES ('\\x00ff', '2024-01-01 10:00:00', 'new')");
    schema.exec("UPDATE " + blobs + " SET note = 'old, changed' WHERE k = '\\x0102'");
    const auto texts =
        queryColumn(db, "SELECT table_id FROM " + schema.diffgenTable() + " ORDER BY id");
    REQUIRE(texts.size() == 3);
    CHECK(*texts[0] == "\\x0102");
    CHECK(*texts[1] == "00ff");
    CHECK(*texts[2] == "0102");
    KeyedReplica replica(schema, blobs, {"k"}, "note");
    replica.sync();
    CHECK(replica.lastRunHas(R"("k":"0102")"));
    CHECK_FALSE(replica.lastRunHas(R"("is_deleted":true)"));
    CHECK(queryScalar(db, "SELECT COUNT(*) FROM " + blobs) == "2");
}

TEST_CASE("mysql: running mysql.sql again upgrades attached tables' key texts") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    JournalledSchema schema(db, "key_upgrade");
    schema.createTable("stamps", "k DATETIME(6) NOT NULL PRIMARY KEY, note VARCHAR(20)", "k");
    const std::string stamps = schema.table("stamps");
    // The INSERT trigger the older diffgen_triggers wrote: the key as it is.
    schema.exec("DROP TRIGGER " + stamps + "_diffgen_i");
    schema.exec("CREATE TRIGGER " + stamps + "_diffgen_i AFTER INSERT ON " + stamps +
                " FOR EACH ROW\n    INSERT INTO " + schema.diffgenTable() +
                " (tablename, table_id, op) VALUES ('" + stamps + "', NEW.`k`, 'i')");
    schema.exec("INSERT INTO " + stamps + " VALUES ('2024-01-01 10:00:00.123456', 'old')");
    schema.installAgain();
    schema.exec("INSERT INTO " + stamps + " VALUES ('2024-01-01 10:00:00.5', 'new')");
    const auto texts =
        queryColumn(db, "SELECT table_id FROM " + schema.diffgenTable() + " ORDER BY id");
    REQUIRE(texts.size() == 2);
    CHECK(*texts[0] == "2024-01-01 10:00:00.123456");
    CHECK(*texts[1] == "2024-01-01T10:00:00.500000");
    schema.createTable("bytes", "k VARBINARY(8) NOT NULL PRIMARY KEY, note VARCHAR(20)", "k");
    // The application's INSERT of a key that is no UTF-8 text journals.
    schema.exec("INSERT INTO " + schema.table("bytes") + " VALUES (X'00ff', 'raw')");
    CHECK(queryScalar(db, "SELECT table_id FROM " + schema.diffgenTable() +
                              " ORDER BY id DESC LIMIT 1") == "00ff");
    KeyedReplica replica(schema, stamps, {"k"}, "note");
    replica.sync();
    CHECK_FALSE(replica.lastRunHas(R"("is_deleted":true)"));
    CHECK(replica.lastRunHas(R"("k":"2024-01-01T10:00:00.123456+00:00")"));
    CHECK(replica.lastRunHas(R"("k":"2024-01-01T10:00:00.500000+00:00")"));
}

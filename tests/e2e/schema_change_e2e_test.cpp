// Migrations while the tap runs (docs/schema-changes.md): columns added with and without a
// default, dropped, renamed, retyped (int → text, numeric(10,2) → numeric(12,4)), made NOT
// NULL, and the table dropped and created again. After each migration the rows changed after it
// must arrive as the table holds them now, new and renamed columns included, and every RECORD
// must be valid under the latest SCHEMA of its stream before it (support/schema_validator.hpp).
//
// Following: one run lives through ten migrations in a row. Replaying a backlog: each
// migration is made in a transaction (PostgreSQL) or under LOCK TABLES (MariaDB) that blocks the
// run's re-pull of the rows changed before it, and is committed while the read waits, so the
// read finds the table changed under it.
#include <doctest/doctest.h>

#include <chrono>
#include <csignal>
#include <functional>
#include <map>
#include <thread>

#include "dialect_fixture.hpp"
#include "support/database_session.hpp"
#include "support/exact_json.hpp"
#include "support/schema_validator.hpp"

using namespace tapdiffgen::testing;

namespace {

using Clock = std::chrono::steady_clock;

// One migration: its statements for PostgreSQL and for MariaDB ({table} stands for the
// table), and the columns rows 1 and 2 are then updated in (every column the table has then).
struct Migration {
    std::string name;
    std::vector<std::string> postgres;
    std::vector<std::string> mysql;
    std::string update;
    bool recreatesTable = false;
};

const char* kColumns = "id INTEGER PRIMARY KEY, a INTEGER, n NUMERIC(10,2), b VARCHAR(20)";
const char* kRecreated = "CREATE TABLE {table} (id INTEGER PRIMARY KEY, a TEXT, z INTEGER)";

std::vector<Migration> migrations() {
    return {
        {"add a column with a default",
         {"ALTER TABLE {table} ADD COLUMN c INTEGER DEFAULT 7"},
         {"ALTER TABLE {table} ADD COLUMN c INTEGER DEFAULT 7"},
         "a = 10, n = 0.5, b = 'v0', c = 10"},
        {"add a column without a default",
         {"ALTER TABLE {table} ADD COLUMN d VARCHAR(10)"},
         {"ALTER TABLE {table} ADD COLUMN d VARCHAR(10)"},
         "a = 11, n = 1.25, b = 'v1', c = 11, d = 'd1'"},
        {"drop a column",
         {"ALTER TABLE {table} DROP COLUMN b"},
         {"ALTER TABLE {table} DROP COLUMN b"},
         "a = 12, n = 2.5, c = 12, d = 'd2'"},
        {"rename a column",
         {"ALTER TABLE {table} RENAME COLUMN d TO e"},
         {"ALTER TABLE {table} RENAME COLUMN d TO e"},
         "a = 13, n = 3.75, c = 13, e = 'e3'"},
        {"int to text",
         {"ALTER TABLE {table} ALTER COLUMN a TYPE TEXT"},
         {"ALTER TABLE {table} MODIFY a TEXT"},
         "a = 'a4', n = 4.5, c = 14, e = 'e4'"},
        {"numeric(10,2) to numeric(12,4)",
         {"ALTER TABLE {table} ALTER COLUMN n TYPE NUMERIC(12,4)"},
         {"ALTER TABLE {table} MODIFY n DECIMAL(12,4)"},
         "a = 'a5', n = 5.1234, c = 15, e = 'e5'"},
        {"a column made NOT NULL",
         {"ALTER TABLE {table} ALTER COLUMN c SET NOT NULL"},
         {"ALTER TABLE {table} MODIFY c INTEGER NOT NULL DEFAULT 7"},
         "a = 'a6', n = 6.5, c = 16, e = 'e6'"},
        {"the table dropped and created again",
         {"DROP TABLE {table}", kRecreated},
         {"DROP TABLE {table}", kRecreated},
         "a = 'a7', z = 17",
         true},
        {"add a column again",
         {"ALTER TABLE {table} ADD COLUMN f NUMERIC(5,1)"},
         {"ALTER TABLE {table} ADD COLUMN f DECIMAL(5,1)"},
         "a = 'a8', z = 18, f = 8.5"},
        {"drop the recreated table's column",
         {"ALTER TABLE {table} DROP COLUMN z"},
         {"ALTER TABLE {table} DROP COLUMN z"},
         "a = 'a9', f = 9.5"},
    };
}

std::string withTable(std::string sql, const std::string& table) {
    const std::string mark = "{table}";
    for (size_t at = sql.find(mark); at != std::string::npos; at = sql.find(mark, at)) {
        sql.replace(at, mark.size(), table);
    }
    return sql;
}

// The table's columns now, in order.
std::vector<std::string> columnsOf(const JournalledSchema& schema, const std::string& table) {
    const std::string sql =
        schema.isPostgres()
            ? "SELECT attname FROM pg_attribute WHERE attrelid = '" + table +
                  "'::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum"
            : "SELECT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = "
              "DATABASE() AND TABLE_NAME = '" +
                  table + "' ORDER BY ORDINAL_POSITION";
    std::vector<std::string> names;
    for (const auto& name : queryColumn(schema.env(), sql)) names.push_back(name.value_or(""));
    return names;
}

// The source's rows as JSON objects, by id.
std::map<std::string, ExactJson> sourceRowsAsJson(const JournalledSchema& schema,
                                                  const std::string& table) {
    std::string sql;
    if (schema.isPostgres()) {
        sql = "SELECT coalesce(json_agg(t ORDER BY id), '[]')::text FROM " + table + " t";
    } else {
        std::string members;
        for (const std::string& column : columnsOf(schema, table)) {
            members += (members.empty() ? "'" : ", '") + column + "', `" + column + "`";
        }
        sql = "SELECT COALESCE(JSON_ARRAYAGG(JSON_OBJECT(" + members + ")), '[]') FROM " + table;
    }
    std::map<std::string, ExactJson> rows;
    const ExactJson all = ExactJson::parse(queryScalar(schema.env(), sql));
    for (const ExactJson& row : all.items()) {
        rows.emplace(row.at("id").scalar(), row);
    }
    return rows;
}

// What a target holds after the records in order, by id, without the metadata members.
std::map<std::string, ExactJson> replicaOf(const std::vector<std::string>& lines,
                                           const std::string& stream) {
    std::map<std::string, ExactJson> replica;
    for (const std::string& line : lines) {
        const ExactJson message = ExactJson::parse(line);
        if (message.at("type").scalar() != "RECORD" || message.at("stream").scalar() != stream) {
            continue;
        }
        const ExactJson& record = message.at("record");
        const std::string id = record.at("id").scalar();
        if (record.at("is_deleted").scalar() == "true") {
            replica.erase(id);
        } else {
            replica.insert_or_assign(id, record);
        }
    }
    return replica;
}

std::string valueText(const ExactJson& value) {
    if (value.type() == ExactJson::Type::Number) return std::to_string(std::stod(value.scalar()));
    return value.canonical();
}

// Every column of the source row, with its value, in the replica's row (numbers compared by
// value: MariaDB's JSON_OBJECT and the tap may spell one differently).
void checkRowReplicated(const ExactJson& source, const ExactJson* replica,
                        const std::string& where) {
    REQUIRE_MESSAGE(replica != nullptr,
                    where << ": row " << source.at("id").scalar() << " is not in the replica");
    for (const auto& [column, value] : source.members()) {
        INFO(where << ": row " << source.at("id").scalar() << ", column " << column);
        std::string replicated = "(missing)";
        for (const auto& [name, member] : replica->members()) {
            if (name == column) replicated = valueText(member);
        }
        CHECK(replicated == valueText(value));
    }
}

// A journalled table t (id, a, n, b) with rows 1..4, and a session of the application's.
struct Migrated {
    JournalledSchema schema;
    std::string table;
    ScratchDir dir;

    Migrated(const DatabaseEnv& env, const std::string& prefix) : schema(env, prefix) {
        schema.createTable("t", kColumns, "id");
        table = schema.table("t");
        schema.exec("INSERT INTO " + table +
                    " (id, a, n, b) VALUES (1, 1, 1.25, 'x'), (2, 2, 2.50, 'y'), (3, 3, 3, 'z'), "
                    "(4, 4, 4.75, 'w')");
    }

    // The migration on `session`; a table created again is journalled and gets rows 1 and 2.
    void migrate(DatabaseSession& session, const Migration& migration) {
        const auto& statements = schema.isPostgres() ? migration.postgres : migration.mysql;
        for (const std::string& sql : statements) session.run(withTable(sql, table));
        if (!migration.recreatesTable) return;
        session.run(schema.attachSql(table, "id"));
        session.run("INSERT INTO " + table + " (id, a, z) VALUES (1, 'r', 1), (2, 'r', 2)");
    }

    // The rows changed after migration `step`: 1 and 2 updated in every column, 10 + step
    // inserted, and after the drop (step 2) row 3 deleted. Returns their ids.
    std::vector<std::string> changeRows(DatabaseSession& session, size_t step) {
        const std::string marker = std::to_string(10 + step);
        session.run("UPDATE " + table + " SET " + migrations()[step].update +
                    " WHERE id IN (1, 2)");
        session.run("INSERT INTO " + table + " (id) VALUES (" + marker + ")");
        if (step == 2) session.run("DELETE FROM " + table + " WHERE id = 3");
        return {"1", "2", marker};
    }

    // The replica from `lines` holds the source's rows `ids` as they are now, and every
    // RECORD is valid under the SCHEMA before it.
    void checkReplica(const std::vector<std::string>& lines, const std::vector<std::string>& ids,
                      const std::string& where) const {
        for (const std::string& problem : outputViolations(lines)) {
            FAIL_CHECK(where << ": " << problem);
        }
        const auto source = sourceRowsAsJson(schema, table);
        const auto replica = replicaOf(lines, table);
        for (const std::string& id : ids) {
            auto row = source.find(id);
            REQUIRE(row != source.end());
            auto replicated = replica.find(id);
            checkRowReplicated(row->second,
                               replicated == replica.end() ? nullptr : &replicated->second, where);
        }
    }
};

bool waitFor(const std::function<bool()>& ready, double seconds = 20) {
    const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
    while (Clock::now() < deadline) {
        if (ready()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
}

bool hasRecord(const std::vector<std::string>& lines, const std::string& stream,
               const std::string& id) {
    for (auto line = lines.rbegin(); line != lines.rend(); ++line) {
        if (line->find(R"("type":"RECORD")") == std::string::npos) continue;
        const ExactJson message = ExactJson::parse(*line);
        if (message.at("stream").scalar() == stream &&
            message.at("record").at("id").scalar() == id) {
            return true;
        }
    }
    return false;
}

std::vector<std::string> linesSoFar(const TapProcess& process) {
    TapRun partial;
    partial.setOutput(process.stdoutSoFar(), "");
    return partial.lines;
}

void followsTenMigrations(const DatabaseEnv& env, const std::string& prefix) {
    Migrated migrated(env, prefix);
    const std::string table = migrated.table;
    TapProcess process(
        {"--config", migrated.schema.writeConfig(migrated.dir, {table},
                                                 R"("follow":true,"poll_interval_seconds":0.05,)"
                                                 R"("max_run_seconds":120)")});
    REQUIRE(waitFor([&] { return hasRecord(linesSoFar(process), table, "4"); }));
    DatabaseSession session(env);
    const std::vector<Migration> all = migrations();
    for (size_t step = 0; step < all.size(); ++step) {
        const Migration& migration = all[step];
        migrated.migrate(session, migration);
        const std::vector<std::string> ids = migrated.changeRows(session, step);
        REQUIRE_MESSAGE(waitFor([&] { return hasRecord(linesSoFar(process), table, ids.back()); }),
                        migration.name);
        migrated.checkReplica(linesSoFar(process), ids, migration.name);
    }
    process.signal(SIGTERM);
    TapRun run = process.wait();
    CHECK_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(run.messages("SCHEMA").size() >= all.size());
    CHECK(run.stderrText.find("' changed (") != std::string::npos);
    CHECK(run.stderrText.find("re-pulling rows on another session failed") == std::string::npos);
}

// Whether a session waits for a lock on a table of the test (PostgreSQL).
bool runWaitsForTheMigration(const JournalledSchema& schema, const std::string& prefix) {
    return queryScalar(schema.env(),
                       "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation "
                       "WHERE NOT l.granted AND c.relname LIKE '" +
                           prefix + "%'") != "0";
}

// Each run replays the changes made before its migration and then those made after it, in
// pages of two events. On PostgreSQL the migration is one transaction, begun before the run and
// committed once the run's read of the first page's rows waits for its lock: that read finds
// the table changed under it. (MariaDB's LOCK TABLES cannot hold the journal's triggers across
// an ALTER TABLE, so there the run starts after the migration, which its first page's
// description finds.)
void replaysABacklogAcrossMigrations(const DatabaseEnv& env, const std::string& prefix) {
    Migrated migrated(env, prefix);
    const std::string table = migrated.table;
    const bool postgres = migrated.schema.isPostgres();
    const std::string config =
        migrated.schema.writeConfig(migrated.dir, {table}, R"("page_size":2,"read_ahead":false)");
    TapRun first = runTapBinary({"--config", config});
    REQUIRE_MESSAGE(first.exitCode == 0, first.stderrText);
    std::string state = first.lastState();
    std::vector<std::string> lines = first.lines;
    DatabaseSession session(env);
    const std::vector<Migration> all = migrations();
    // Up to the table created again: the issue's migrations, each read under a lock.
    for (size_t step = 0; step <= 7; ++step) {
        const Migration& migration = all[step];
        migrated.schema.exec("UPDATE " + table + " SET id = id WHERE id IN (1, 2)");
        const bool locked = postgres;
        if (locked) session.run("BEGIN");
        migrated.migrate(session, migration);
        const std::vector<std::string> ids = migrated.changeRows(session, step);
        TapProcess process(
            {"--config", config, "--state", migrated.dir.write("state.json", state)});
        const bool waited =
            locked && waitFor([&] { return runWaitsForTheMigration(migrated.schema, prefix); });
        if (locked) session.run("COMMIT");
        TapRun run = process.wait();
        REQUIRE_MESSAGE(run.exitCode == 0, migration.name << ": " << run.stderrText);
        CHECK_MESSAGE(waited == locked, migration.name);
        lines.insert(lines.end(), run.lines.begin(), run.lines.end());
        state = run.lastState();
        migrated.checkReplica(lines, ids, migration.name);
        if (locked) {
            CHECK_MESSAGE(run.stderrText.find("' changed (") != std::string::npos, run.stderrText);
        }
    }
}

}  // namespace

TEST_CASE("postgres: a following run lives through ten migrations, each row as it is now") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    followsTenMigrations(db, "e2e_mig_follow");
}
TEST_CASE("mysql: a following run lives through ten migrations, each row as it is now") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    followsTenMigrations(db, "e2e_mig_follow");
}
TEST_CASE("postgres: a backlog replayed across migrations, each read under the migration lock") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    replaysABacklogAcrossMigrations(db, "e2e_mig_backlog");
}
TEST_CASE("mysql: a backlog replayed across migrations, each row as it is now") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    replaysABacklogAcrossMigrations(db, "e2e_mig_backlog");
}

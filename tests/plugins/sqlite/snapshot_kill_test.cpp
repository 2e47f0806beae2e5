// A 60,000-row SQLite table snapshotted in chunks of 50 while a writer changes the file, and
// the tap killed at random points at least ten times (SQLite has no server to end its
// sessions): each run resumes the snapshot after its last chunk, and at the end the replica
// equals the table (support/snapshot_interruptions.hpp). SQLite reads a chunk in a fraction of
// a millisecond, and a loaded machine may take tens of milliseconds to notice the output the
// test waits for: small chunks of a table of this size leave room for the interruptions.
#include <doctest/doctest.h>

#include <chrono>
#include <fstream>
#include <memory>
#include <sstream>

#include "sqlite_test_support.hpp"
#include "support/snapshot_interruptions.hpp"

using namespace tapdiffgen;
using namespace tapdiffgen::sqlitetest;

namespace {

constexpr int kRows = 60000;
constexpr int kChunkRows = 50;

std::string readFile(const std::string& path) {
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

std::map<int64_t, int64_t> rowsOf(const std::string& path) {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
    std::unique_ptr<sqlite3, int (*)(sqlite3*)> closer(db, sqlite3_close);
    sqlite3_stmt* statement = nullptr;
    REQUIRE(sqlite3_prepare_v2(db, "SELECT id, v FROM big", -1, &statement, nullptr) == SQLITE_OK);
    std::map<int64_t, int64_t> rows;
    while (sqlite3_step(statement) == SQLITE_ROW) {
        rows[sqlite3_column_int64(statement, 0)] = sqlite3_column_int64(statement, 1);
    }
    sqlite3_finalize(statement);
    return rows;
}

}  // namespace

TEST_CASE("sqlite: a snapshot killed again and again resumes and ends right") {
    TempDatabase database;
    database.exec(readFile(TDG_SQLITE_DIFFGEN_SQL));
    database.exec(R"(CREATE TABLE big (id INTEGER PRIMARY KEY, v INTEGER NOT NULL, note TEXT);
        CREATE TRIGGER big_diffgen_i AFTER INSERT ON big BEGIN
            INSERT INTO diffgen (tablename, table_id, op) VALUES ('big', NEW.id, 'i');
        END;
        CREATE TRIGGER big_diffgen_u AFTER UPDATE ON big BEGIN
            INSERT INTO diffgen (tablename, table_id, op) VALUES ('big', NEW.id, 'u');
        END;
        CREATE TRIGGER big_diffgen_d AFTER DELETE ON big BEGIN
            INSERT INTO diffgen (tablename, table_id, op) VALUES ('big', OLD.id, 'd');
        END;
        WITH RECURSIVE n(id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM n WHERE id < )" +
                  std::to_string(kRows) + R"()
        INSERT INTO big SELECT id, id, 'row ' || id FROM n;)");
    testing::ScratchDir dir;
    const std::string config =
        dir.write("config.json", R"({"sql_dialect":"sqlite","database":")" + database.path() +
                                     R"(","tables":[{"table_name":"big","pk_column":"id",)"
                                     R"("start_from":"snapshot"}],"page_size":)" +
                                     std::to_string(kChunkRows) + R"(,"max_page_size":)" +
                                     std::to_string(kChunkRows) + "}");
    testing::InterruptedSnapshot setup;
    setup.stream = "big";
    setup.table = "big";
    setup.rows = kRows;
    setup.chunkRows = kChunkRows;
    setup.killDelayMs = 2;
    const std::string path = database.path();
    setup.openWriter = [path] {
        auto writer = std::make_shared<Writer>(path, std::chrono::seconds(10));
        return [writer](const std::string& sql) { writer->exec(sql); };
    };
    setup.sourceRows = [path] { return rowsOf(path); };
    setup.tapArguments = [config](const std::string& statePath) {
        std::vector<std::string> arguments = {"--config", config};
        if (!statePath.empty()) arguments.insert(arguments.end(), {"--state", statePath});
        return arguments;
    };
    testing::snapshotThroughInterruptions(setup);
}

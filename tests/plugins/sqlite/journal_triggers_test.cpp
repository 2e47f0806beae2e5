// The triggers packaging/diffgen/sqlite.sql writes, under the application's writes: keys that
// change only in letter case (a NOCASE column) or in trailing blanks (an RTRIM column) are key
// changes, so a replica the tap keeps up to date run after run equals the source.
#include <doctest/doctest.h>

#include <sqlite3.h>

#include <map>
#include <memory>
#include <set>
#include <string>

#include "sqlite_cli.hpp"
#include "support/sqlite_journal.hpp"
#include "support/tap_process.hpp"

using namespace tapdiffgen::testing;

namespace {

class Database {
public:
    explicit Database(const std::string& path) {
        sqlite3* raw = nullptr;
        const int opened = sqlite3_open(path.c_str(), &raw);
        db_.reset(raw);
        REQUIRE_MESSAGE(opened == SQLITE_OK, sqlite3_errmsg(raw));
    }
    void exec(const std::string& sql) {
        char* message = nullptr;
        const int status = sqlite3_exec(db_.get(), sql.c_str(), nullptr, nullptr, &message);
        const std::string text = message != nullptr ? message : "";
        sqlite3_free(message);
        REQUIRE_MESSAGE(status == SQLITE_OK, text);
    }
    /// "<code>|<note>" of every row of `table`.
    std::set<std::string> rows(const std::string& table) {
        sqlite3_stmt* raw = nullptr;
        REQUIRE(sqlite3_prepare_v2(db_.get(), ("SELECT code || '|' || note FROM " + table).c_str(),
                                   -1, &raw, nullptr) == SQLITE_OK);
        std::unique_ptr<sqlite3_stmt, decltype(&sqlite3_finalize)> query(raw, sqlite3_finalize);
        std::set<std::string> rows;
        while (sqlite3_step(raw) == SQLITE_ROW) {
            rows.emplace(reinterpret_cast<const char*>(sqlite3_column_text(raw, 0)));
        }
        return rows;
    }
    sqlite3* handle() { return db_.get(); }

private:
    std::unique_ptr<sqlite3, decltype(&sqlite3_close)> db_{nullptr, sqlite3_close};
};

// The tables' rows as a target holds them, by stream: "<code>|<note>" by code.
struct Replica {
    std::string state;
    std::map<std::string, std::map<std::string, std::string>> streams;

    std::set<std::string> rows(const std::string& stream) const {
        std::set<std::string> rows;
        for (const auto& [code, row] : streams.at(stream)) rows.insert(row);
        return rows;
    }
};

void sync(const std::string& config, const ScratchDir& work, Replica& replica) {
    std::vector<std::string> args = {"--config", config};
    if (!replica.state.empty()) {
        args.push_back("--state");
        args.push_back(work.write("state.json", replica.state));
    }
    TapRun run = runTapBinary(args);
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    for (const std::string stream : {"codes", "padded"}) {
        auto& rows = replica.streams[stream];
        replica.state = run.applyAsTarget(
            stream,
            [&](const Poco::JSON::Object::Ptr& record) {
                const std::string code = record->getValue<std::string>("code");
                if (record->getValue<bool>("is_deleted")) {
                    rows.erase(code);
                } else {
                    rows[code] = code + "|" + record->getValue<std::string>("note");
                }
            },
            replica.state);
    }
}

}  // namespace

TEST_CASE("sqlite: a key changed only in letter case or trailing blanks is a key change") {
    ScratchDir work;
    const std::string path = work.path() + "/keys.db";
    REQUIRE(applySql(path, TDG_SOURCE_DIR "/packaging/diffgen/sqlite.sql", work.path()) == 0);
    Database db(path);
    db.exec(
        "CREATE TABLE codes (code TEXT COLLATE NOCASE PRIMARY KEY, note TEXT);"
        "CREATE TABLE padded (code TEXT COLLATE RTRIM PRIMARY KEY, note TEXT)");
    journalSqliteTable(db.handle(), "codes");
    journalSqliteTable(db.handle(), "padded");
    db.exec(
        "INSERT INTO codes VALUES ('Abc', 'one'), ('xyz', 'two');"
        "INSERT INTO padded VALUES ('a', 'one'), ('b ', 'two')");
    const std::string config =
        work.write("config.json", R"({"sql_dialect":"sqlite","database":")" + path +
                                      R"(","tables":[{"table_name":"codes","pk_column":"code"},)"
                                      R"({"table_name":"padded","pk_column":"code"}]})");
    Replica replica;
    sync(config, work, replica);
    CHECK(replica.rows("codes") == db.rows("codes"));
    CHECK(replica.rows("padded") == db.rows("padded"));

    db.exec(
        "UPDATE codes SET code = 'abc' WHERE code = 'Abc';"
        "UPDATE codes SET note = 'two, changed' WHERE code = 'XYZ';"
        "UPDATE padded SET code = 'a ' WHERE code = 'a';"
        "UPDATE padded SET code = 'b' WHERE code = 'b'");
    sync(config, work, replica);
    CHECK(replica.rows("codes") == db.rows("codes"));
    CHECK(replica.rows("padded") == db.rows("padded"));
    CHECK(db.rows("padded") == std::set<std::string>{"a |one", "b|two"});
}

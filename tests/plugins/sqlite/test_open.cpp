// Opening a database file: the plugin's identity and version, settings, files that are missing
// (never created), not databases or directories, and reads next to a writer holding locks in
// both journal modes (the busy timeout waits out a commit; connect_timeout bounds the wait).
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <thread>

#include "sqlite_test_support.hpp"

using namespace tapdiffgen;
using Clock = std::chrono::steady_clock;

namespace {

const char* kOneEventLog = R"SQL(
CREATE TABLE diffgen (id INTEGER PRIMARY KEY AUTOINCREMENT, tablename TEXT NOT NULL,
                      table_id TEXT NOT NULL, op TEXT NOT NULL, ts_created TEXT);
INSERT INTO diffgen (tablename, table_id, op) VALUES ('t', '1', 'i');
)SQL";

double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// Holds `lockSql` (e.g. BEGIN EXCLUSIVE) on its own connection and thread for `hold`, then
// commits; the future is ready once the lock is taken.
class LockHolder {
public:
    LockHolder(const std::string& path, std::string lockSql, std::chrono::milliseconds hold) {
        std::promise<void> locked;
        taken_ = locked.get_future();
        thread_ = std::thread([path, lockSql, hold, promise = std::move(locked)]() mutable {
            try {
                sqlitetest::Writer writer(path);
                writer.exec(lockSql);
                promise.set_value();
                std::this_thread::sleep_for(hold);
                writer.exec("COMMIT");
            } catch (...) {
                // Before the lock: the test sees it from get(); after: the COMMIT failed,
                // which the reads of the test show anyway.
                try {
                    promise.set_exception(std::current_exception());
                } catch (const std::future_error&) {
                }
            }
        });
        try {
            taken_.get();
        } catch (...) {
            thread_.join();
            throw;
        }
    }
    ~LockHolder() { thread_.join(); }
    LockHolder(const LockHolder&) = delete;
    LockHolder& operator=(const LockHolder&) = delete;

private:
    std::future<void> taken_;
    std::thread thread_;
};

}  // namespace

TEST_CASE("the plugin names itself sqlite and reports the library version") {
    CHECK(sqlitetest::plugin()->dialect() == "sqlite");
    sqlitetest::TempDatabase db;
    db.exec(kOneEventLog);
    auto connection = sqlitetest::connect(db.path());
    CHECK(connection->serverVersion() == std::string("SQLite ") + sqlite3_libversion());
    CHECK(connection->serverVersion().rfind("SQLite 3.", 0) == 0);
}

TEST_CASE("a missing file is NOT_FOUND and is not created") {
    testing::ScratchDir dir;
    std::string path = dir.path() + "/absent.db";
    std::string message;
    CHECK(testing::statusOf([&] { sqlitetest::connect(path); }, &message) == TDG_NOT_FOUND);
    CHECK(message.find(path) != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(path));
    CHECK(testing::statusOf([&] { sqlitetest::connect(dir.path() + "/no/such/dir.db"); }) ==
          TDG_NOT_FOUND);
}

TEST_CASE("bad settings and files that are no database are refused") {
    testing::ScratchDir dir;
    CHECK(testing::statusOf([&] { sqlitetest::connect(""); }) == TDG_INVALID_ARGUMENT);
    CHECK(testing::statusOf([&] { sqlitetest::connect(dir.path()); }) == TDG_INVALID_ARGUMENT);
    std::string text = dir.write("notes.txt", std::string(4096, 'x'));
    CHECK(testing::statusOf([&] { sqlitetest::connect(text); }) == TDG_INVALID_DATA);

    sqlitetest::TempDatabase db;
    db.exec(kOneEventLog);
    CHECK(testing::statusOf([&] {
              sqlitetest::connect(db.path(), {{"connect_timeout", "0"}});
          }) == TDG_INVALID_ARGUMENT);
    CHECK(testing::statusOf([&] {
              sqlitetest::connect(db.path(), {{"connect_timeout", "soon"}});
          }) == TDG_INVALID_ARGUMENT);
}

TEST_CASE("server settings are ignored with a debug line that never shows the password") {
    sqlitetest::TempDatabase db;
    db.exec(kOneEventLog);
    auto log = std::make_shared<testing::LogLines>();
    auto connection = sqlitetest::connect(db.path(),
                                          {{"host", "db.example"},
                                           {"port", "5432"},
                                           {"user", "app"},
                                           {"password", "s3cret-pw"},
                                           {"ssl_mode", "require"}},
                                          log);
    CHECK(connection->maxDiffgenId({"", "diffgen"}) == 1);
    for (const char* key : {"'host'", "'port'", "'user'", "'password'", "'ssl_mode'"}) {
        CHECK_MESSAGE(log->count(key) == 1, key);
    }
    CHECK_FALSE(log->contains("s3cret-pw"));
    CHECK_FALSE(log->contains("db.example"));
    std::lock_guard<std::mutex> lock(log->mutex);
    for (const auto& line : log->lines) CHECK(line.first == TDG_LOG_DEBUG);
}

TEST_CASE("reading never changes the file and leaves no journal or transaction behind") {
    sqlitetest::TempDatabase db;
    db.exec(kOneEventLog);
    auto before = std::filesystem::last_write_time(db.path());
    auto size = std::filesystem::file_size(db.path());
    {
        auto connection = sqlitetest::connect(db.path());
        connection->describeTable({"", "diffgen"});
        connection->readDiffgenPage({"", "diffgen"}, 0, INT64_MAX, 10, {"t"});
        // A writer gets the exclusive lock at once: no read transaction was left open.
        sqlitetest::Writer writer(db.path());
        writer.exec("BEGIN EXCLUSIVE; ROLLBACK;");
    }
    CHECK(std::filesystem::last_write_time(db.path()) == before);
    CHECK(std::filesystem::file_size(db.path()) == size);
    CHECK_FALSE(std::filesystem::exists(db.path() + "-journal"));
}

TEST_CASE("rollback journal: an open write transaction does not block a read") {
    sqlitetest::TempDatabase db;
    db.exec(kOneEventLog);
    auto connection = sqlitetest::connect(db.path());
    sqlitetest::Writer writer(db.path());
    writer.exec(
        "BEGIN IMMEDIATE; INSERT INTO diffgen (tablename, table_id, op) VALUES"
        " ('t', '2', 'i');");
    Clock::time_point start = Clock::now();
    CHECK(connection->maxDiffgenId({"", "diffgen"}) == 1);  // the uncommitted id is not seen
    CHECK(secondsSince(start) < 1.0);
    writer.exec("COMMIT");
    CHECK(connection->maxDiffgenId({"", "diffgen"}) == 2);
}

TEST_CASE("rollback journal: a read waits for a writer's exclusive lock, up to connect_timeout") {
    sqlitetest::TempDatabase db;
    db.exec(kOneEventLog);
    auto connection = sqlitetest::connect(db.path(), {{"connect_timeout", "1"}});
    {
        LockHolder holder(db.path(),
                          "BEGIN EXCLUSIVE; INSERT INTO diffgen (tablename, table_id, op)"
                          " VALUES ('t', '2', 'i');",
                          std::chrono::milliseconds(400));
        Clock::time_point start = Clock::now();
        CHECK(connection->maxDiffgenId({"", "diffgen"}) == 2);  // waited for the commit
        CHECK(secondsSince(start) >= 0.2);
    }
    {
        LockHolder holder(db.path(), "BEGIN EXCLUSIVE;", std::chrono::milliseconds(2500));
        Clock::time_point start = Clock::now();
        std::string message;
        try {
            connection->maxDiffgenId({"", "diffgen"});
            FAIL("the read did not time out");
        } catch (const core::DialectError& error) {
            CHECK(error.status() == TDG_IO);
            CHECK(error.retryable());
            message = error.what();
        }
        CHECK(message.find("locked") != std::string::npos);
        double waited = secondsSince(start);
        CHECK(waited >= 0.9);
        CHECK(waited < 2.4);
    }
    CHECK(connection->maxDiffgenId({"", "diffgen"}) == 2);
}

TEST_CASE("WAL: a read runs beside an open write transaction and sees only commits") {
    sqlitetest::TempDatabase db;
    db.exec(kOneEventLog);
    db.exec("PRAGMA journal_mode = WAL");
    auto connection = sqlitetest::connect(db.path());
    sqlitetest::Writer writer(db.path());
    writer.exec(
        "BEGIN IMMEDIATE; INSERT INTO diffgen (tablename, table_id, op) VALUES"
        " ('t', '2', 'i');");
    CHECK(connection->maxDiffgenId({"", "diffgen"}) == 1);
    writer.exec("COMMIT");
    CHECK(connection->maxDiffgenId({"", "diffgen"}) == 2);
    auto page = connection->readDiffgenPage({"", "diffgen"}, 0, INT64_MAX, 10, {"t"});
    CHECK(page.size() == 2);
    CHECK(page.rangeRowCount() == 2);
}

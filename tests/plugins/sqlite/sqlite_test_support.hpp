// Shared pieces of the SQLite plugin tests: the plugin as built by the external project, loaded
// through the engine's loader; scratch database files written through SQLite's own C API (not
// through the plugin, which is read-only); row batches rendered as comparable text.
#pragma once

#include <sqlite3.h>

#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "plugin/dialect_connection.hpp"
#include "support/tap_process.hpp"

namespace tapdiffgen::sqlitetest {

using Options = std::vector<std::pair<std::string, std::string>>;

/// The plugin under test (TDG_SQLITE_PLUGIN_PATH), loaded once.
std::shared_ptr<const core::Plugin> plugin();

/// Log lines the plugin sent, with their levels, safe to append to from any thread.
struct LogLines {
    std::mutex mutex;
    std::vector<std::pair<int, std::string>> lines;

    bool contains(const std::string& fragment);
    int count(const std::string& fragment);
};

/// A writable connection of the test's own, for setup and for holding locks.
class Writer {
public:
    explicit Writer(const std::string& path);
    ~Writer();
    Writer(const Writer&) = delete;
    Writer& operator=(const Writer&) = delete;
    /// Runs one or more statements; throws std::runtime_error with SQLite's message.
    void exec(const std::string& sql);

private:
    sqlite3* db_ = nullptr;
};

/// A database file in a scratch directory, removed with the object.
class TempDatabase {
public:
    TempDatabase();
    const std::string& path() const { return path_; }
    const std::string& dir() const { return scratch_.path(); }
    void exec(const std::string& sql);

private:
    testing::ScratchDir scratch_;
    std::string path_;
};

/// A plugin connection to `path`, `extra` overriding or adding settings.
std::unique_ptr<core::DialectConnection> connect(const std::string& path, const Options& extra = {},
                                                 std::shared_ptr<LogLines> log = nullptr);

/// The status of the DialectError `call` throws; fails the test when it throws nothing.
template <typename Call>
TdgStatus statusOf(Call&& call, std::string* message = nullptr) {
    try {
        call();
    } catch (const core::DialectError& error) {
        if (message != nullptr) *message = error.what();
        return error.status();
    }
    return TDG_OK;
}

/// A cell as "KIND:text": "NULL", "INT64:5", "BOOL:true", "BYTES:00ff" (hex), "TEXT:abc".
std::string render(const TdgCell& cell);

using Rows = std::vector<std::vector<std::string>>;

/// Collects rendered rows (and the size of every batch) from fetch or scan callbacks.
struct Collector {
    Rows rows;
    std::vector<int64_t> batchSizes;

    core::BatchCallback callback();
};

/// The first column of every row, for order checks.
std::vector<std::string> firstColumn(const Rows& rows);

/// Every row of `table` by scan, all columns described, in key order.
Rows scanAll(core::DialectConnection& connection, const std::string& table, const std::string& key,
             int64_t batchRows = 0);

}  // namespace tapdiffgen::sqlitetest

// The SQLite side of the plugin tests (the shared side is plugins/support/plugin_probe.hpp): the
// plugin as built by the external project, loaded through the engine's loader; connections to a
// database file; scratch database files written through SQLite's own C API (not through the
// plugin, which is read-only).
#pragma once

#include <sqlite3.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "plugins/support/plugin_probe.hpp"
#include "support/tap_process.hpp"

namespace tapdiffgen::sqlitetest {

/// The plugin under test (TDG_SQLITE_PLUGIN_PATH), loaded once.
std::shared_ptr<const core::Plugin> plugin();

/// A writable connection of the test's own, for setup and for holding locks.
class Writer {
public:
    /// `busyTimeout` zero: a lock another connection holds fails the statement at once, which
    /// the lock tests rely on. A writer beside a running tap waits out its reads, as an
    /// application's writer must.
    explicit Writer(const std::string& path,
                    std::chrono::milliseconds busyTimeout = std::chrono::milliseconds(0));
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
std::unique_ptr<core::DialectConnection> connect(const std::string& path,
                                                 const testing::PluginOptions& extra = {},
                                                 std::shared_ptr<testing::LogLines> log = nullptr);

/// Every row of `table` by scan, all columns described, in key order.
testing::Rows scanAll(core::DialectConnection& connection, const std::string& table,
                      const std::string& key, int64_t batchRows = 0);

}  // namespace tapdiffgen::sqlitetest

// Session: one read-only SQLite connection (a database file) and its prepared statements.
//
// Opened with SQLITE_OPEN_READONLY and `PRAGMA query_only`, so nothing the plugin runs can
// change the file, and a missing file is an error instead of a new empty database. Every
// statement runs in autocommit: a single SELECT is its own read transaction, which is the
// snapshot the diffgen page relies on, and no transaction is ever left open between calls.
#pragma once

#include <sqlite3.h>

#include <atomic>
#include <memory>
#include <string>
#include <unordered_map>

#include "settings.hpp"
#include "statement.hpp"
#include "tap-diffgen/sdk/call_cancel.hpp"

namespace tapdiffgen::sqlite {

class Session {
public:
    /// Throws DriverError: TDG_NOT_FOUND when the file does not exist, TDG_INVALID_DATA when it
    /// is not a SQLite database, TDG_IO or TDG_UNAUTHORIZED when it cannot be read.
    /// `cancel` is the driver's: a cancel that lands between two statements of one call
    /// (fetch chunks, scan pages) stops the next one, as SQLite forgets an interrupt once no
    /// statement runs.
    Session(const Settings& settings, const sdk::CallCancel& cancel);
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    /// The prepared statement for `sql`, prepared once and kept. Shared, so a statement still
    /// being read survives the cache being trimmed. Throws DriverError(TDG_CANCELLED) once the
    /// call was cancelled.
    std::shared_ptr<Statement> prepare(const std::string& sql, const std::string& context);

    /// Whether `schema` has a table `name`, from the schema SQLite holds (no statement runs).
    bool hasTable(const std::string& schema, const std::string& name);

    /// Thread-safe: makes the running statement fail with SQLITE_INTERRUPT.
    void interrupt();

    const std::string& path() const { return path_; }

private:
    void configure(int busyTimeoutMs);

    sqlite3* db_ = nullptr;
    std::string path_;
    const sdk::CallCancel& cancel_;
    std::unordered_map<std::string, std::shared_ptr<Statement>> statements_;
};

}  // namespace tapdiffgen::sqlite

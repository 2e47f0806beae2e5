// Shared pieces of the PostgreSQL plugin tests: the built plugin loaded through the engine's
// loader, connections with captured log lines, row batches rendered as comparable text, and a
// second raw libpq session for holding transactions open.
#pragma once

#include <libpq-fe.h>

#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "plugin/dialect_connection.hpp"
#include "support/databases.hpp"

namespace tapdiffgen::pgtest {

using Options = std::vector<std::pair<std::string, std::string>>;

/// The plugin under test (TDG_POSTGRES_PLUGIN_PATH), loaded once.
std::shared_ptr<const core::Plugin> plugin();

/// Log lines the plugin sent, safe to append to from any thread.
struct LogLines {
    std::mutex mutex;
    std::vector<std::string> lines;

    bool contains(const std::string& fragment) { return count(fragment) > 0; }
    size_t count(const std::string& fragment);
};

/// A connection with the test database's settings, `extra` overriding or adding to them.
std::unique_ptr<core::DialectConnection> connect(const testing::DatabaseEnv& env,
                                                 const Options& extra = {},
                                                 std::shared_ptr<LogLines> log = nullptr);

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

/// A separate libpq session (not the plugin's) for transactions a test keeps open.
class RawSession {
public:
    explicit RawSession(const testing::DatabaseEnv& env);
    ~RawSession();
    RawSession(const RawSession&) = delete;
    RawSession& operator=(const RawSession&) = delete;
    /// Runs `sql`; throws std::runtime_error on failure.
    void exec(const std::string& sql);

private:
    PGconn* connection_;
};

/// Rows of pg_stat_activity of this database's tap sessions in `state`.
int tapSessionsInState(const testing::DatabaseEnv& env, const std::string& state);

}  // namespace tapdiffgen::pgtest

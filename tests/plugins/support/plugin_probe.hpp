// What the tests of every dialect plugin do alike, whatever database is behind it: connections
// that capture the plugin's log lines, row batches rendered as comparable text, and the
// statuses, column names and event ids the assertions compare. Each dialect's own support file
// adds its plugin path and the raw sessions of its database.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "plugin/dialect_connection.hpp"
#include "support/databases.hpp"

namespace tapdiffgen::testing {

/// Connection settings as the tap hands them to a plugin: (key, text value).
using PluginOptions = std::vector<std::pair<std::string, std::string>>;

/// Log lines the plugin sent, with their TDG_LOG_* levels, safe to append to from any thread.
struct LogLines {
    std::mutex mutex;
    std::vector<std::pair<int, std::string>> lines;

    bool contains(const std::string& fragment) { return count(fragment) > 0; }
    int count(const std::string& fragment);
    int count(int level, const std::string& fragment);
};

/// A connection of `plugin` with exactly `options`; the plugin's log lines go to `log`.
std::unique_ptr<core::DialectConnection> connectPlugin(std::shared_ptr<const core::Plugin> plugin,
                                                       const PluginOptions& options,
                                                       std::shared_ptr<LogLines> log = nullptr);

/// A connection with the test database's settings, `extra` overriding or adding to them.
std::unique_ptr<core::DialectConnection> connectDatabase(std::shared_ptr<const core::Plugin> plugin,
                                                         const DatabaseEnv& env,
                                                         const PluginOptions& extra = {},
                                                         std::shared_ptr<LogLines> log = nullptr);

/// "INT64", "TEXT", ... (the TDG_KIND_* name without its prefix).
std::string kindName(TdgValueKind kind);

/// A cell as "KIND:text": "NULL", "INT64:5", "BOOL:true", "BYTES:00ff" (hex), "TEXT:abc".
std::string renderCell(const TdgCell& cell);

using Rows = std::vector<std::vector<std::string>>;

/// Collects rendered rows (and the size of every batch) from fetch or scan callbacks.
struct Collector {
    Rows rows;
    std::vector<int64_t> batchSizes;

    core::BatchCallback callback();
};

/// What each request of a fetch_rows_many received, and the order requests were answered in.
struct ManyCollector {
    std::vector<Collector> perRequest;
    std::vector<size_t> answerOrder;

    explicit ManyCollector(size_t requests) : perRequest(requests) {}
    core::BatchCallback callback(size_t request);
    /// Request `request`'s rows, sorted.
    Rows sorted(size_t request) const;
};

/// One request of fetchMany: a one-column key.
struct Fetch {
    core::TableRef table;
    std::vector<std::string> columns;
    std::string keyColumn;
    std::vector<std::string> keys;
};

/// DialectConnection::fetchRowsMany for `fetches`, in batches of at most 1,000 rows.
void fetchMany(core::DialectConnection& connection, const std::vector<Fetch>& fetches,
               ManyCollector& collected);

/// "1", "2", ... up to `count`.
std::vector<std::string> keysUpTo(int count);

/// The first column of every row, for order checks.
std::vector<std::string> firstColumn(const Rows& rows);

/// The names of described columns, in their order.
std::vector<std::string> columnNames(const std::vector<core::ColumnDescription>& columns);

/// Every field of a described column, as one line, for comparing two descriptions whole.
std::string describedText(const std::vector<core::ColumnDescription>& columns);

/// `columns` by name, after checking that they are `expected`, in that order, with ordinals
/// counting from 1.
std::map<std::string, core::ColumnDescription> describedInOrder(
    const std::vector<core::ColumnDescription>& columns, const std::vector<std::string>& expected);

/// The ids of a diffgen page's events, in page order.
std::vector<int64_t> eventIds(const core::EventPage& page);

/// The status of the DialectError `call` throws (its message to `message`); TDG_OK when it
/// throws none, which no expected failure status equals.
TdgStatus statusOf(const std::function<void()>& call, std::string* message = nullptr);

/// The DialectError `call` throws; fails the test with `unexpected` when it throws none.
core::DialectError dialectErrorOf(const std::function<void()>& call, const char* unexpected);

/// journal_bounds of the unqualified table `diffgen` as "3..5 next 6", "empty next 1" or
/// "1..2 next unknown"; fails the test when the plugin cannot tell.
std::string boundsOf(core::DialectConnection& connection, const std::string& diffgen);

/// How a dialect's test changes a log for checkBoundsThroughLife, in its own SQL.
struct LogLife {
    /// Runs SQL beside the plugin, as the application would.
    std::function<void(const std::string&)> exec;
    /// Empties the log and starts its ids anew (TRUNCATE ... RESTART IDENTITY).
    std::string resetSql;
    /// Drops the log and creates it again, empty.
    std::string recreateSql;
};

/// journal_bounds through what a log lives through, from empty: 5 ids taken (1..5 next 6), the
/// oldest 2 pruned (3..5 next 6), all pruned (empty next 6), one more (6..6 next 7), a reset
/// (empty next 1), 2 more (1..2 next 3), and the log created again with one (1..1 next 2).
void checkBoundsThroughLife(core::DialectConnection& connection, const std::string& log,
                            const LogLife& life);

/// A table's journal triggers as "name events -> journal name" ("(unknown)" for none), in the
/// order reported.
std::vector<std::string> triggerLines(const core::TableJournal& table);

/// A table's partitions as "schema.name", in the order reported.
std::vector<std::string> partitionNames(const core::TableJournal& table);

/// A table's bypassing foreign keys as "constraint -> parent: actions".
std::vector<std::string> foreignKeyLines(const core::TableJournal& table);

/// Checks a connection refused for its TLS setup: a certificate or TLS file is the
/// configuration's to fix, so no retry can pass; the message names the problem (`fragment`).
void checkTlsRefused(const core::DialectError& failure, const std::string& fragment);

}  // namespace tapdiffgen::testing

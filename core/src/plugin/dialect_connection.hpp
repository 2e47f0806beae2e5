// DialectConnection: the engine's RAII face of one plugin connection. It turns every TdgStatus
// into a DialectError, releases every output the plugin hands over, and never lets a plugin
// see a pointer it could keep.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "config/table_ref.hpp"
#include "keys/key_spec.hpp"
#include "plugin/journal_facts.hpp"
#include "plugin/plugin.hpp"
#include "tap-diffgen/dialect_abi.h"
#include "util/tap_error.hpp"

namespace tapdiffgen::core {

/// The kind of failure a plugin's status is: a lost connection, a refused login or a missing
/// table the user can fix, a value that cannot be read, or the plugin's own bug.
ErrorKind errorKindOfStatus(TdgStatus status);

/// A failed plugin call: the plugin's one-line message plus its status and SQLSTATE.
class DialectError : public TapError {
public:
    DialectError(TdgStatus status, const std::string& message, std::string sqlstate, bool retryable)
        : TapError(errorKindOfStatus(status), message),
          status_(status),
          sqlstate_(std::move(sqlstate)),
          retryable_(retryable) {}
    TdgStatus status() const { return status_; }
    const std::string& sqlstate() const { return sqlstate_; }
    bool retryable() const { return retryable_; }
    std::string line() const override {
        return sqlstate_.empty() ? std::string(what())
                                 : std::string(what()) + " [SQLSTATE " + sqlstate_ + "]";
    }

private:
    TdgStatus status_;
    std::string sqlstate_;
    bool retryable_;
};

/// "UNKNOWN", "NOT_FOUND", ... for messages.
const char* statusName(TdgStatus status);

struct ColumnDescription {
    std::string name;
    int ordinal = 0;
    TdgValueKind kind = TDG_KIND_TEXT;
    std::string sqlType;
    int precision = -1;
    int scale = -1;
    bool nullable = true;
    bool primaryKey = false;
    std::string jsonSchema;
    /// TDG_KEY_SUPPORT_*: whether the driver can fetch rows by this column's values.
    uint8_t keySupport = TDG_KEY_SUPPORT_UNSTATED;
};

/// Owns one TdgEventPage.
class EventPage {
public:
    EventPage() = default;
    explicit EventPage(const TdgEventPage& page) : page_(page) {}
    EventPage(EventPage&& other) noexcept;
    EventPage& operator=(EventPage&& other) noexcept;
    EventPage(const EventPage&) = delete;
    EventPage& operator=(const EventPage&) = delete;
    ~EventPage();

    size_t size() const { return static_cast<size_t>(page_.num_events); }
    bool empty() const { return page_.num_events == 0; }
    const TdgEvent& operator[](size_t i) const { return page_.events[i]; }
    const TdgEvent* begin() const { return page_.events; }
    const TdgEvent* end() const { return page_.events + page_.num_events; }
    int64_t rangeRowCount() const { return page_.range_row_count; }
    const TdgHorizonMark& mark() const { return page_.mark; }

private:
    TdgEventPage page_{};
};

using LogFunction = std::function<void(int level, const std::string& message)>;
using BatchCallback = std::function<void(const TdgRowBatch& batch)>;

/// One read of DialectConnection::fetchRowsMany; the pointed-to values outlive the call.
struct FetchSpec {
    const TableRef* table = nullptr;
    const std::vector<std::string>* columns = nullptr;
    /// The kind of each of columns as describe_table reported it (may be null: unknown).
    const std::vector<TdgValueKind>* columnKinds = nullptr;
    const KeySpec* key = nullptr;
    /// key->columns.size() canonical texts per key, key by key (row_key.hpp).
    std::vector<std::string> keys;
    BatchCallback onBatch;
};

/// What DialectConnection::scanTable and scanChunk read; the pointed-to values outlive the call.
struct ScanSpec {
    const TableRef* table = nullptr;
    const std::vector<std::string>* columns = nullptr;
    /// The kind of each of columns as describe_table reported it (may be null: unknown).
    const std::vector<TdgValueKind>* columnKinds = nullptr;
    const KeySpec* key = nullptr;
    /// Preferred rows per batch handed to the callback (0: the plugin's choice).
    int64_t batchRows = 0;
};

class DialectConnection {
public:
    /// Connects; options are the tap's settings as (key, text value).
    DialectConnection(std::shared_ptr<const Plugin> plugin,
                      const std::vector<std::pair<std::string, std::string>>& options,
                      LogFunction log = {});
    ~DialectConnection();
    DialectConnection(const DialectConnection&) = delete;
    DialectConnection& operator=(const DialectConnection&) = delete;

    const Plugin& plugin() const { return *plugin_; }

    std::string serverVersion();
    std::vector<ColumnDescription> describeTable(const TableRef& table);
    /// describeTable for every one of `tables`, in one call when the plugin has
    /// describe_tables (a bounded number of round trips), else one call per table.
    std::vector<std::vector<ColumnDescription>> describeTables(const std::vector<TableRef>& tables);
    EventPage readDiffgenPage(const TableRef& diffgen, int64_t afterId, int64_t upToId,
                              int64_t limit, const std::vector<std::string>& tableNames);
    std::optional<int64_t> maxDiffgenId(const TableRef& diffgen);
    /// Streams rows of `columns` for `keys`; the callback sees batches lent for its duration.
    /// An exception thrown by the callback stops the read and is rethrown here.
    void fetchRows(const FetchSpec& fetch, int64_t batchRows = 0);
    /// The same for a one-column key whose kinds the caller does not know (tests, tools).
    void fetchRows(const TableRef& table, const std::vector<std::string>& columns,
                   const std::string& keyColumn, const std::vector<std::string>& keys,
                   const BatchCallback& onBatch, int64_t batchRows = 0);
    /// fetchRows for each of `fetches`, in order, all handed to the plugin at once so that it
    /// can pipeline them (one after the other when it cannot).
    void fetchRowsMany(const std::vector<FetchSpec>& fetches, int64_t batchRows = 0);
    void scanTable(const ScanSpec& scan, const BatchCallback& onBatch);
    void scanTable(const TableRef& table, const std::vector<std::string>& columns,
                   const std::vector<TdgValueKind>* columnKinds, const KeySpec& key,
                   int64_t batchRows, const BatchCallback& onBatch);
    /// One chunk of the table in key order (scan_chunk, ABI revision 5): the rows after
    /// `afterKey` (one cell per key column, as the plugin's batches carried them; empty: from
    /// the first row), at most maxRows. False, having read nothing, when the plugin cannot read
    /// chunks (no scan_chunk, or NOT_IMPLEMENTED): scanTable reads the table instead.
    bool scanChunk(const ScanSpec& scan, const std::vector<TdgCell>& afterKey, int64_t maxRows,
                   const BatchCallback& onBatch);
    /// The table's rows as the database estimates them (estimate_rows, ABI revision 5);
    /// nullopt when it has no estimate or the plugin cannot tell.
    std::optional<int64_t> estimateRows(const TableRef& table);
    void scanTable(const TableRef& table, const std::vector<std::string>& columns,
                   const std::string& keyColumn, int64_t batchRows, const BatchCallback& onBatch);
    /// The log's bounds; nullopt when the plugin cannot read them (before ABI revision 5, or
    /// NOT_IMPLEMENTED).
    std::optional<JournalBounds> journalBounds(const TableRef& diffgen);
    /// What the catalog says of the journalling of `tables` (entry i for tables[i]); nullopt
    /// when the plugin cannot tell.
    std::optional<JournalInspection> inspectJournal(const TableRef& diffgen,
                                                    const std::vector<TableRef>& tables,
                                                    bool includeTriggers);
    /// Whether the plugin takes keys of more than one column (ABI revision 2).
    bool acceptsCompositeKeys() const;
    /// nullopt when the plugin cannot tell (no check_horizon, or NOT_IMPLEMENTED).
    std::optional<bool> checkHorizon(TdgHorizonMark& mark);
    /// Waits up to timeoutMs for the database to signal a commit: whether one came; nullopt
    /// when the plugin cannot wait (no wait_for_change, or NOT_IMPLEMENTED), so poll instead.
    std::optional<bool> waitForChange(int64_t timeoutMs);
    /// Thread-safe: interrupts the running call, best effort.
    void cancel();
    /// Keeps `transport` (the SSH tunnel the connection runs through) until the plugin's
    /// connection is closed.
    void keepUntilClosed(std::shared_ptr<void> transport) { transport_ = std::move(transport); }

private:
    struct FetchRequestStorage;

    std::shared_ptr<const Plugin> plugin_;
    TdgConnection* connection_ = nullptr;
    LogFunction log_;
    std::shared_ptr<void> transport_;  // released after close(), in the destructor's epilogue
    bool cannotWait_ = false;
    bool cannotChunk_ = false;

    [[noreturn]] void fail(TdgStatus status, TdgError& error, const std::string& context);
    void check(TdgStatus status, TdgError& error, const std::string& context);
};

}  // namespace tapdiffgen::core

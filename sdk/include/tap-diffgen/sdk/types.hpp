// C++ views of the ABI's requests, as IDialectDriver receives them. Views borrow from the
// C structures for the duration of one call.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tap-diffgen/dialect_abi.h"

namespace tapdiffgen::sdk {

/// A table name split into an optional schema and a name, exactly as configured.
struct TableName {
    std::optional<std::string> schema;
    std::string name;

    static TableName fromRef(const TdgTableRef& ref);
    /// "schema.name" or "name", for messages.
    std::string display() const;
};

/// The settings connect() received, with typed accessors.
class ConnectOptions {
public:
    ConnectOptions() = default;
    explicit ConnectOptions(const TdgConnectParams& params);

    bool has(const std::string& key) const;
    /// The value, or `fallback` when absent or empty.
    std::string get(const std::string& key, const std::string& fallback = {}) const;
    /// The value as an integer; throws DriverError(TDG_INVALID_ARGUMENT) naming the key.
    long long getInt(const std::string& key, long long fallback) const;
    /// The same within [minimum, maximum]: "setting 'k' must be between 1 and 3600". Since
    /// SDK 0.2.0.
    long long getInt(const std::string& key, long long fallback, long long minimum,
                     long long maximum) const;
    const std::map<std::string, std::string>& all() const { return values_; }

    /// Sends a line to the host's log (stderr of the tap). Kept for drivers written against SDK
    /// 0.1; a driver constructed with (ConnectOptions, HostLog) logs through HostLog instead.
    void log(int level, const std::string& message) const;
    void warn(const std::string& message) const { log(TDG_LOG_WARNING, message); }
    void debug(const std::string& message) const { log(TDG_LOG_DEBUG, message); }

private:
    std::map<std::string, std::string> values_;
    void (*logFn_)(void*, int32_t, const char*) = nullptr;
    void* logContext_ = nullptr;
};

/// A column as describe_table reports it; jsonSchema without the null type.
struct ColumnInfo {
    std::string name;
    int ordinal = 0;
    TdgValueKind kind = TDG_KIND_TEXT;
    std::string sqlType;
    int precision = -1;
    int scale = -1;
    bool nullable = true;
    bool primaryKey = false;
    std::string jsonSchema;
    /// TDG_KEY_SUPPORT_*: whether a key may name the column (ABI 6; see TdgColumn).
    uint8_t keySupport = TDG_KEY_SUPPORT_UNSTATED;
};

/// See TdgPageRequest.
struct PageRequest {
    TableName diffgen;
    int64_t afterId = 0;
    int64_t upToId = INT64_MAX;
    int64_t limit = 0;
    std::vector<std::string_view> tableNames;
};

/// See TdgFetchRequest. Keys are text; the driver binds them with each key column's type.
struct FetchRequest {
    TableName table;
    std::vector<std::string_view> columns;
    /// The kind describe_table reported for each of columns; empty from a revision-1 host.
    std::vector<TdgValueKind> columnKinds;
    /// The key's columns in key order (one for a one-column key); each is among columns.
    std::vector<std::string_view> keyColumns;
    /// keyColumns.size() texts per key: key i's column c is keys[i * keyColumns.size() + c].
    std::vector<std::string_view> keys;
    int64_t batchRows = 0;

    size_t keyCount() const { return keyColumns.empty() ? 0 : keys.size() / keyColumns.size(); }
    /// Key i's text for key column c.
    std::string_view key(size_t i, size_t c) const { return keys[i * keyColumns.size() + c]; }
};

/// See TdgScanRequest.
struct ScanRequest {
    TableName table;
    std::vector<std::string_view> columns;
    std::vector<TdgValueKind> columnKinds;
    std::vector<std::string_view> keyColumns;
    int64_t batchRows = 0;
    /// scan_chunk (since 5): the key the chunk starts after, one cell per key column in key
    /// order, as the driver's own row batches carried it (borrowed for the call); empty: from
    /// the first row. A text cell's data is not NUL-terminated.
    std::vector<TdgCell> afterKey;
    /// scan_chunk: at most this many rows; 0 for scan_table (every row).
    int64_t maxRows = 0;
};

/// Where each key column stands among `columns`; throws DriverError(TDG_INVALID_ARGUMENT) for
/// a key column that was not requested.
std::vector<size_t> keyPositions(const std::vector<std::string_view>& columns,
                                 const std::vector<std::string_view>& keyColumns);

}  // namespace tapdiffgen::sdk

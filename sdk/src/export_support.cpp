// Conversions used by the trampolines in export.hpp, compiled once into the SDK library.
#include <algorithm>
#include <cstring>
#include <vector>

#include "tap-diffgen/sdk/export.hpp"

namespace tapdiffgen::sdk::detail {

void requireNonNull(const void* pointer, const char* what) {
    if (pointer == nullptr) throw invalidArgument(std::string(what) + " is NULL");
}

namespace {

struct OwnedColumns {
    std::vector<ColumnInfo> infos;
    std::vector<TdgColumn> columns;
};

std::vector<std::string_view> views(const char* const* items, int64_t count, const char* what) {
    if (count < 0) throw invalidArgument(std::string(what) + " count is negative");
    if (count > 0) requireNonNull(items, what);
    std::vector<std::string_view> out;
    out.reserve(static_cast<size_t>(count));
    for (int64_t i = 0; i < count; ++i) {
        requireNonNull(items[i], what);
        out.emplace_back(items[i]);
    }
    return out;
}

}  // namespace

void releaseColumnList(TdgColumnList* list) {
    if (list == nullptr) return;
    delete static_cast<OwnedColumns*>(list->private_data);
    std::memset(list, 0, sizeof(*list));
}

void publishColumns(std::vector<ColumnInfo> columns, TdgColumnList* out) {
    auto owned = std::make_unique<OwnedColumns>();
    owned->infos = std::move(columns);
    for (const ColumnInfo& info : owned->infos) {
        TdgColumn column{};
        column.name = info.name.c_str();
        column.ordinal = info.ordinal;
        column.value_kind = info.kind;
        column.sql_type = info.sqlType.c_str();
        column.precision = info.precision;
        column.scale = info.scale;
        column.nullable = info.nullable ? 1 : 0;
        column.primary_key = info.primaryKey ? 1 : 0;
        column.key_support = info.keySupport;
        column.json_schema = info.jsonSchema.c_str();
        owned->columns.push_back(column);
    }
    std::memset(out, 0, sizeof(*out));
    out->num_columns = static_cast<int32_t>(owned->columns.size());
    out->columns = owned->columns.data();
    out->release = &releaseColumnList;
    out->private_data = owned.release();
}

PageRequest toPageRequest(const TdgPageRequest& request) {
    requireNonNull(request.diffgen.name, "diffgen table name");
    PageRequest typed;
    typed.diffgen = TableName::fromRef(request.diffgen);
    typed.afterId = request.after_id;
    typed.upToId = request.up_to_id;
    typed.limit = request.limit;
    if (typed.limit <= 0) throw invalidArgument("page limit must be positive");
    typed.tableNames = views(request.table_names, request.num_table_names, "table name");
    return typed;
}

size_t expectedEvents(const PageRequest& request) {
    constexpr int64_t kMostEventsReserved = 1 << 16;
    return static_cast<size_t>(std::min(request.limit, kMostEventsReserved));
}

namespace {

// The key columns and column kinds of a request: the revision-2 fields when the host's
// struct_size covers them, the single key_column of revision 1 otherwise.
template <typename Request>
void readKeyAndKinds(const Request& request, size_t revision2Size, size_t numColumns,
                     std::vector<std::string_view>& keyColumns,
                     std::vector<TdgValueKind>& columnKinds) {
    requireNonNull(request.key_column, "key column");
    if (request.struct_size < revision2Size || request.num_key_columns <= 1) {
        keyColumns.emplace_back(request.key_column);
    } else {
        keyColumns = views(request.key_columns, request.num_key_columns, "key column");
        if (keyColumns[0] != request.key_column) {
            throw invalidArgument("key_columns[0] is not key_column");
        }
    }
    if (request.struct_size >= revision2Size && request.column_kinds != nullptr) {
        columnKinds.assign(request.column_kinds, request.column_kinds + numColumns);
    }
}

}  // namespace

FetchRequest toFetchRequest(const TdgFetchRequest& request) {
    requireNonNull(request.table.name, "table name");
    FetchRequest typed;
    typed.table = TableName::fromRef(request.table);
    typed.columns = views(request.columns, request.num_columns, "column name");
    if (typed.columns.empty()) throw invalidArgument("no columns requested");
    readKeyAndKinds(request, TDG_FETCH_REQUEST_SIZE_2, typed.columns.size(), typed.keyColumns,
                    typed.columnKinds);
    if (request.num_keys < 0) throw invalidArgument("key count is negative");
    const int64_t texts = request.num_keys * static_cast<int64_t>(typed.keyColumns.size());
    if (texts > 0) {
        requireNonNull(request.keys, "keys");
        requireNonNull(request.key_sizes, "key sizes");
    }
    typed.keys.reserve(static_cast<size_t>(texts));
    for (int64_t i = 0; i < texts; ++i) {
        requireNonNull(request.keys[i], "key");
        typed.keys.emplace_back(request.keys[i], request.key_sizes[i]);
    }
    typed.batchRows = request.batch_rows;
    return typed;
}

ScanRequest toScanRequest(const TdgScanRequest& request) {
    requireNonNull(request.table.name, "table name");
    ScanRequest typed;
    typed.table = TableName::fromRef(request.table);
    typed.columns = views(request.columns, request.num_columns, "column name");
    if (typed.columns.empty()) throw invalidArgument("no columns requested");
    readKeyAndKinds(request, TDG_SCAN_REQUEST_SIZE_2, typed.columns.size(), typed.keyColumns,
                    typed.columnKinds);
    typed.batchRows = request.batch_rows;
    return typed;
}

ScanRequest toChunkRequest(const TdgScanRequest& request) {
    if (request.struct_size < TDG_SCAN_REQUEST_SIZE_5) {
        throw invalidArgument(
            "scan_chunk needs a scan request of ABI version 5 (after_key, "
            "max_rows)");
    }
    ScanRequest typed = toScanRequest(request);
    if (request.max_rows < 1) throw invalidArgument("max_rows must be at least 1");
    typed.maxRows = request.max_rows;
    if (request.after_key != nullptr) {
        typed.afterKey.assign(request.after_key, request.after_key + typed.keyColumns.size());
        for (const TdgCell& cell : typed.afterKey) {
            if (cell.kind == TDG_KIND_NULL) throw invalidArgument("after_key holds a NULL");
        }
    }
    return typed;
}

}  // namespace tapdiffgen::sdk::detail

#include "row_reader.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>

#include "cells.hpp"
#include "key_codec.hpp"
#include "statement.hpp"
#include "tap-diffgen/sdk/values.hpp"

namespace tapdiffgen::sqlite {
namespace {

// Far below SQLite's limit of 32766 parameters, and few enough distinct chunk sizes that each
// gets a prepared statement of its own.
constexpr size_t kMaxParametersPerStatement = 500;

// One-column keys: `key IN (?, ...)`. Composite keys: the keys as a table of their own joined
// on the key columns, which SQLite answers through the primary key index (a row-value IN
// (VALUES ...) would scan the table).
std::string fetchSql(const SelectPlan& plan, size_t keyCount) {
    const size_t width = plan.keySql.size();
    if (width == 1) {
        std::string sql = "SELECT " + plan.selectList + " FROM " + plan.tableSql + " AS " +
                          kRowAlias + " WHERE " + plan.keySql[0] + " IN (";
        for (size_t i = 0; i < keyCount; ++i) sql += i == 0 ? "?" : ", ?";
        return sql + ")";
    }
    std::string names, row, join;
    for (size_t c = 0; c < width; ++c) {
        std::string name = "\"k" + std::to_string(c) + "\"";
        names += (c == 0 ? "" : ", ") + name;
        row += c == 0 ? "?" : ", ?";
        join += (c == 0 ? "" : " AND ") + plan.keySql[c] + " = \"tdg_keys\"." + name;
    }
    std::string sql = "WITH \"tdg_keys\"(" + names + ") AS (VALUES ";
    for (size_t i = 0; i < keyCount; ++i) sql += (i == 0 ? "(" : ", (") + row + ")";
    return sql + ") SELECT " + plan.selectList + " FROM \"tdg_keys\" JOIN " + plan.tableSql +
           " AS " + kRowAlias + " ON " + join;
}

}  // namespace

void fetchRows(Session& database, const sdk::TableName& table, const SelectPlan& plan,
               const std::vector<std::string_view>& keys, sdk::RowBatchBuilder& rows,
               sdk::UnrepresentableValues& warnings) {
    const size_t width = plan.keyIndices.size();
    std::vector<TdgValueKind> keyKinds;
    for (int index : plan.keyIndices) {
        keyKinds.push_back(plan.columns[static_cast<size_t>(index)].kind);
    }
    const size_t keyCount = keys.size() / width;
    const size_t keysPerStatement = std::max<size_t>(1, kMaxParametersPerStatement / width);
    std::string context = "reading table '" + table.display() + "'";
    for (size_t start = 0; start < keyCount; start += keysPerStatement) {
        size_t count = std::min(keysPerStatement, keyCount - start);
        auto statement = database.prepare(fetchSql(plan, count), context);
        Cursor cursor(*statement);
        for (size_t i = 0; i < count * width; ++i) {
            bindKey(cursor, static_cast<int>(i) + 1, keys[start * width + i], keyKinds[i % width]);
        }
        while (cursor.next()) addRow(cursor, plan, rows, warnings);
    }
}

namespace {

constexpr int64_t kDefaultPageRows = 10000;

struct ValueDeleter {
    void operator()(sqlite3_value* value) const { sqlite3_value_free(value); }
};
using OwnedValue = std::unique_ptr<sqlite3_value, ValueDeleter>;

// NULL keys are left out: no diffgen row can name them, and `key > ?` could not page past them.
// A composite key pages by row value, which SQLite compares in key order through the index.
std::string pageSql(const SelectPlan& plan, bool first) {
    std::string notNull, order, last;
    for (size_t c = 0; c < plan.keySql.size(); ++c) {
        notNull += (c == 0 ? "" : " AND ") + plan.keySql[c] + " IS NOT NULL";
        order += (c == 0 ? "" : ", ") + plan.keySql[c];
        last += (c == 0 ? "?" : ", ?") + std::to_string(c + 2);
    }
    std::string after =
        plan.keySql.size() == 1 ? order + " > " + last : "(" + order + ") > (" + last + ")";
    return "SELECT " + plan.selectList + " FROM " + plan.tableSql + " AS " + kRowAlias + " WHERE " +
           (first ? notNull : notNull + " AND " + after) + " ORDER BY " + order + " LIMIT ?1";
}

}  // namespace

void scanTable(Session& database, const sdk::TableName& table, const SelectPlan& plan,
               int64_t pageRows, sdk::RowBatchBuilder& rows, sdk::UnrepresentableValues& warnings) {
    int64_t limit = pageRows > 0 ? pageRows : kDefaultPageRows;
    std::string context = "reading table '" + table.display() + "'";
    // The key as SQLite stored it, so the next page compares with the same type and collation
    // as ORDER BY did.
    std::vector<OwnedValue> lastKey;
    for (;;) {
        auto statement = database.prepare(pageSql(plan, lastKey.empty()), context);
        Cursor cursor(*statement);
        cursor.bindInt64(1, limit);
        for (size_t c = 0; c < lastKey.size(); ++c) {
            cursor.bindValue(static_cast<int>(c) + 2, lastKey[c].get());
        }
        int64_t read = 0;
        while (cursor.next()) {
            addRow(cursor, plan, rows, warnings);
            ++read;
            if (read == limit) {
                lastKey.clear();
                for (int index : plan.keyIndices) {
                    lastKey.emplace_back(
                        sqlite3_value_dup(sqlite3_column_value(cursor.row(), index)));
                    if (!lastKey.back()) throw std::bad_alloc();
                }
            }
        }
        if (read < limit) return;
    }
}

namespace {

void bindKeyCell(Cursor& cursor, int index, const TdgCell& cell) {
    const std::string_view text(cell.data, static_cast<size_t>(cell.size));
    switch (cell.kind) {
        case TDG_KIND_INT64:
        case TDG_KIND_BOOL:
            cursor.bindInt64(index, cell.i64);
            return;
        case TDG_KIND_BYTES:
            cursor.bindBlob(index, text);
            return;
        case TDG_KIND_DECIMAL: {
            int64_t whole = 0;
            auto parsed = std::from_chars(text.data(), text.data() + text.size(), whole);
            if (parsed.ec == std::errc() && parsed.ptr == text.data() + text.size()) {
                cursor.bindInt64(index, whole);
            } else {
                cursor.bindDouble(index, std::strtod(std::string(text).c_str(), nullptr));
            }
            return;
        }
        default:
            cursor.bindText(index, text);
            return;
    }
}

}  // namespace

void scanChunk(Session& database, const sdk::TableName& table, const SelectPlan& plan,
               const std::vector<TdgCell>& afterKey, int64_t maxRows, sdk::RowBatchBuilder& rows,
               sdk::UnrepresentableValues& warnings) {
    auto statement = database.prepare(pageSql(plan, afterKey.empty()),
                                      "reading table '" + table.display() + "'");
    Cursor cursor(*statement);
    cursor.bindInt64(1, maxRows);
    for (size_t c = 0; c < afterKey.size(); ++c) {
        bindKeyCell(cursor, static_cast<int>(c) + 2, afterKey[c]);
    }
    while (cursor.next()) addRow(cursor, plan, rows, warnings);
}

}  // namespace tapdiffgen::sqlite

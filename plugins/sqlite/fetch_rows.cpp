#include "fetch_rows.hpp"

#include <algorithm>
#include <charconv>
#include <string>

#include "cells.hpp"
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

// Integer keys are bound as integers, so the comparison never depends on affinity; text that
// is no integer is bound as text, matching what SQLite would store for it.
void bindKey(Cursor& cursor, int index, std::string_view key, bool integerKey) {
    int64_t value = 0;
    auto parsed = std::from_chars(key.data(), key.data() + key.size(), value);
    if (integerKey && parsed.ec == std::errc() && parsed.ptr == key.data() + key.size()) {
        cursor.bindInt64(index, value);
    } else {
        cursor.bindText(index, key);
    }
}

}  // namespace

void fetchRows(Database& database, const sdk::TableName& table, const SelectPlan& plan,
               const std::vector<std::string_view>& keys, sdk::RowBatchBuilder& rows,
               sdk::UnrepresentableValues& warnings) {
    const size_t width = plan.keyIndices.size();
    std::vector<bool> integerKey;
    for (int index : plan.keyIndices) {
        integerKey.push_back(plan.columns[static_cast<size_t>(index)].kind == TDG_KIND_INT64);
    }
    const size_t keyCount = keys.size() / width;
    const size_t keysPerStatement = std::max<size_t>(1, kMaxParametersPerStatement / width);
    std::string context = "reading table '" + table.display() + "'";
    for (size_t start = 0; start < keyCount; start += keysPerStatement) {
        size_t count = std::min(keysPerStatement, keyCount - start);
        auto statement = database.prepare(fetchSql(plan, count), context);
        Cursor cursor(*statement);
        for (size_t i = 0; i < count * width; ++i) {
            bindKey(cursor, static_cast<int>(i) + 1, keys[start * width + i],
                    integerKey[i % width]);
        }
        while (cursor.next()) addRow(cursor, plan, rows, warnings);
    }
}

}  // namespace tapdiffgen::sqlite

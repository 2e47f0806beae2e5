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
constexpr size_t kMaxKeysPerStatement = 500;

std::string fetchSql(const sdk::TableName& table, const SelectPlan& plan, size_t keyCount) {
    std::string sql = "SELECT " + plan.selectList + " FROM " +
                      sdk::quoteTableName(table.schema, table.name, '"') + " WHERE " +
                      sdk::quoteIdentifier(plan.columns[plan.keyIndex].name, '"') + " IN (";
    for (size_t i = 0; i < keyCount; ++i) sql += i == 0 ? "?" : ", ?";
    return sql + ")";
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
               ValueWarnings& warnings) {
    bool integerKey = plan.columns[plan.keyIndex].kind == TDG_KIND_INT64;
    std::string context = "reading table '" + table.display() + "'";
    for (size_t start = 0; start < keys.size(); start += kMaxKeysPerStatement) {
        size_t count = std::min(kMaxKeysPerStatement, keys.size() - start);
        auto statement = database.prepare(fetchSql(table, plan, count), context);
        Cursor cursor(*statement);
        for (size_t i = 0; i < count; ++i) {
            bindKey(cursor, static_cast<int>(i) + 1, keys[start + i], integerKey);
        }
        while (cursor.next()) addRow(cursor, plan, rows, warnings);
    }
}

}  // namespace tapdiffgen::sqlite

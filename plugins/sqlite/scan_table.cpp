#include "scan_table.hpp"

#include <memory>
#include <new>
#include <string>

#include "cells.hpp"
#include "statement.hpp"
#include "tap-diffgen/sdk/values.hpp"

namespace tapdiffgen::sqlite {
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

void scanTable(Database& database, const sdk::TableName& table, const SelectPlan& plan,
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

}  // namespace tapdiffgen::sqlite

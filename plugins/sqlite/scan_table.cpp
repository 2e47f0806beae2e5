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
std::string pageSql(const sdk::TableName& table, const SelectPlan& plan, bool first) {
    std::string key = sdk::quoteIdentifier(plan.columns[plan.keyIndex].name, '"');
    return "SELECT " + plan.selectList + " FROM " +
           sdk::quoteTableName(table.schema, table.name, '"') + " WHERE " + key +
           (first ? " IS NOT NULL" : " > ?2") + " ORDER BY " + key + " LIMIT ?1";
}

}  // namespace

void scanTable(Database& database, const sdk::TableName& table, const SelectPlan& plan,
               int64_t pageRows, sdk::RowBatchBuilder& rows, ValueWarnings& warnings) {
    int64_t limit = pageRows > 0 ? pageRows : kDefaultPageRows;
    std::string context = "reading table '" + table.display() + "'";
    // The key as SQLite stored it, so the next page compares with the same type and collation
    // as ORDER BY did.
    OwnedValue lastKey;
    for (;;) {
        auto statement = database.prepare(pageSql(table, plan, lastKey == nullptr), context);
        Cursor cursor(*statement);
        cursor.bindInt64(1, limit);
        if (lastKey) cursor.bindValue(2, lastKey.get());
        int64_t read = 0;
        while (cursor.next()) {
            addRow(cursor, plan, rows, warnings);
            ++read;
            if (read == limit) {
                lastKey.reset(sqlite3_value_dup(sqlite3_column_value(cursor.row(), plan.keyIndex)));
                if (!lastKey) throw std::bad_alloc();
            }
        }
        if (read < limit) return;
    }
}

}  // namespace tapdiffgen::sqlite

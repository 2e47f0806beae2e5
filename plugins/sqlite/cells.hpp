// One stored value as a cell of its column's kind. The kind is fixed per column by the declared
// type, but SQLite stores each value with its own storage class (INTEGER, REAL, TEXT, BLOB), so
// every kind reads every class it can carry faithfully and sends the others as NULL, with a
// warning.
#pragma once

#include "column_plan.hpp"
#include "statement.hpp"
#include "tap-diffgen/sdk/row_batch_builder.hpp"
#include "tap-diffgen/sdk/unrepresentable.hpp"

namespace tapdiffgen::sqlite {

/// Adds result column `index` of the cursor's current row to `rows`.
void addCell(const Cursor& cursor, int index, const ColumnPlan& column, sdk::RowBatchBuilder& rows,
             sdk::UnrepresentableValues& warnings);

/// Adds the cursor's current row, laid out as `plan.selectList`, and ends it.
void addRow(const Cursor& cursor, const SelectPlan& plan, sdk::RowBatchBuilder& rows,
            sdk::UnrepresentableValues& warnings);

}  // namespace tapdiffgen::sqlite

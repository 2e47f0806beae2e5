// scan_table for SQLite: every row in key order, one bounded statement per page, each page
// starting after the last key of the one before (keyset pagination). No read transaction spans
// pages, so a writer is never held back for the length of a whole scan.
#pragma once

#include <cstdint>

#include "column_plan.hpp"
#include "database.hpp"
#include "tap-diffgen/sdk/row_batch_builder.hpp"
#include "tap-diffgen/sdk/unrepresentable.hpp"

namespace tapdiffgen::sqlite {

/// Adds every row of `table` with a non-NULL key; `pageRows` 0 means the plugin's default.
void scanTable(Database& database, const sdk::TableName& table, const SelectPlan& plan,
               int64_t pageRows, sdk::RowBatchBuilder& rows, sdk::UnrepresentableValues& warnings);

}  // namespace tapdiffgen::sqlite

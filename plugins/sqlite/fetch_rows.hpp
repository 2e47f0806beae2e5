// fetch_rows for SQLite: the current rows for a set of keys, `WHERE key IN (?, ...)` in chunks.
#pragma once

#include <string_view>
#include <vector>

#include "column_plan.hpp"
#include "database.hpp"
#include "tap-diffgen/sdk/row_batch_builder.hpp"
#include "tap-diffgen/sdk/unrepresentable.hpp"

namespace tapdiffgen::sqlite {

/// Adds the rows of `table` whose key is one of `keys`; keys without a row are skipped.
void fetchRows(Database& database, const sdk::TableName& table, const SelectPlan& plan,
               const std::vector<std::string_view>& keys, sdk::RowBatchBuilder& rows,
               sdk::UnrepresentableValues& warnings);

}  // namespace tapdiffgen::sqlite

// Row reads for SQLite: fetch_rows, the current rows for a set of keys (`key IN (?, ...)` in
// chunks, or a join with the keys of a composite key), and scan_table, every row in key order,
// one bounded statement per page, each page starting after the last key of the one before
// (keyset pagination). No read transaction spans pages, so a writer is never held back for the
// length of a whole scan.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "column_plan.hpp"
#include "session.hpp"
#include "tap-diffgen/sdk/row_batch_builder.hpp"
#include "tap-diffgen/sdk/unrepresentable.hpp"

namespace tapdiffgen::sqlite {

/// Adds the rows of `table` whose key is one of `keys`; keys without a row are skipped.
void fetchRows(Session& database, const sdk::TableName& table, const SelectPlan& plan,
               const std::vector<std::string_view>& keys, sdk::RowBatchBuilder& rows,
               sdk::UnrepresentableValues& warnings);

/// Adds every row of `table` with a non-NULL key; `pageRows` 0 means the plugin's default.
void scanTable(Session& database, const sdk::TableName& table, const SelectPlan& plan,
               int64_t pageRows, sdk::RowBatchBuilder& rows, sdk::UnrepresentableValues& warnings);

/// One chunk (scan_chunk): the rows with a non-NULL key after `afterKey` (the key cells of the
/// last row of the chunk before, as addRow made them; empty: from the first row), at most
/// `maxRows`. Each cell is bound as the storage class its kind comes from: integers (and
/// booleans) as INTEGER, numbers as INTEGER when whole, else REAL, bytes as BLOB, every other
/// kind as TEXT, which orders like the stored value when the table holds its dates, times and
/// decimals in the form the plugin sends them (ISO 8601, plain digits).
void scanChunk(Session& database, const sdk::TableName& table, const SelectPlan& plan,
               const std::vector<TdgCell>& afterKey, int64_t maxRows, sdk::RowBatchBuilder& rows,
               sdk::UnrepresentableValues& warnings);

}  // namespace tapdiffgen::sqlite

// fetch_rows_many, checked inside check "table": the case's fetches sent at once must give each
// fetch the rows it gets alone, every batch of request i before any of request i+1.
#pragma once

#include <string>
#include <vector>

#include "live_cases.hpp"
#include "plugin/dialect_connection.hpp"
#include "row_collector.hpp"

namespace tapdiffgen::conformance {

/// One of a case's fetches, with the rows fetch_rows gave for it (already checked).
struct PlannedFetch {
    std::vector<std::string> columns;
    std::vector<TdgValueKind> kinds;
    std::vector<std::string> keys;  // flattened: each key's texts in key column order
    std::vector<RowText> rows;      // sorted
};

/// Sends every fetch in one fetch_rows_many through the engine's wrapper (the request layout of
/// the plugin's revision) and, for a one-column key when the plugin also speaks revision 1, once
/// more through a revision-1 table with revision-1 requests, so a plugin that steps through the
/// array by its own sizeof instead of requests->struct_size reads garbage and fails. Returns
/// what was checked; throws CaseFailure.
std::string checkFetchRowsMany(const LiveContext& context, core::DialectConnection& connection,
                               const core::TableRef& table, const core::KeySpec& key,
                               const std::vector<PlannedFetch>& fetches, int64_t batchRows);

}  // namespace tapdiffgen::conformance

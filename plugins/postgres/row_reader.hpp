// fetch_rows and scan_table: current rows of a table, selected by a bound key list or in key
// order, streamed row by row into the host's batches.
#pragma once

#include <functional>

#include "catalog.hpp"
#include "session.hpp"
#include "tap-diffgen/sdk/row_batch_builder.hpp"
#include "tap-diffgen/sdk/types.hpp"

namespace tapdiffgen::postgres {

/// The table's description: the cached one, or (fresh = true) one read again from the catalog.
using Describer = std::function<const TableDescription&(bool fresh)>;

/// Rows whose key is one of request.keys, in any order; missing keys are simply absent.
void fetchRows(Session& session, const Describer& describe, const sdk::FetchRequest& request,
               sdk::RowBatchBuilder& rows);

/// Every row whose key is not NULL, in key order, one bounded statement per batch.
void scanTable(Session& session, const Describer& describe, const sdk::ScanRequest& request,
               sdk::RowBatchBuilder& rows);

}  // namespace tapdiffgen::postgres

// fetch_rows and scan_table: current rows of a table, selected by a bound key list or in key
// order, streamed row by row into the host's batches.
#pragma once

#include <functional>
#include <vector>

#include "catalog.hpp"
#include "session.hpp"
#include "tap-diffgen/sdk/row_batch_builder.hpp"
#include "tap-diffgen/sdk/types.hpp"

namespace tapdiffgen::postgres {

/// The table's description: the cached one, or (fresh = true) one read again from the catalog.
using Describer = std::function<const TableDescription&(bool fresh)>;

/// Any table's description, as Describer.
using TableDescriber = std::function<const TableDescription&(const sdk::TableName&, bool fresh)>;

/// Rows whose key is one of request.keys, in any order; missing keys are simply absent.
void fetchRows(Session& session, const Describer& describe, const sdk::FetchRequest& request,
               sdk::RowBatchBuilder& rows);

/// fetchRows for each request, in order, each builder finished when its request is done. The
/// statements go to the server together (pipeline mode), so it never waits between them for
/// the host to consume rows.
void fetchRowsMany(Session& session, const TableDescriber& describe,
                   const std::vector<sdk::FetchRequest>& requests,
                   const std::vector<sdk::RowBatchBuilder*>& rows);

/// Every row whose key is not NULL, in key order, one bounded statement per batch.
void scanTable(Session& session, const Describer& describe, const sdk::ScanRequest& request,
               sdk::RowBatchBuilder& rows);

/// One chunk (scan_chunk): the rows after request.afterKey in key order, at most
/// request.maxRows, in one statement whose rows stream one at a time (single-row mode).
void scanChunk(Session& session, const Describer& describe, const sdk::ScanRequest& request,
               sdk::RowBatchBuilder& rows);

}  // namespace tapdiffgen::postgres

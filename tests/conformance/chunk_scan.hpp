// scan_chunk (ABI revision 5) read to the table's end the way the engine's snapshot reads it:
// chunks of max_rows, each after the last row of the chunk before (its key cells exactly as
// the plugin's batches carried them). Every row must come exactly once: a chunk that starts
// after the first key column alone skips the rest of that column's run across the chunk's
// edge, one that starts at its after_key (>=) repeats a row per chunk.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "plugin/dialect_connection.hpp"
#include "row_collector.hpp"

namespace tapdiffgen::conformance {

struct ChunkedRows {
    std::vector<RowText> rows;  // sorted
    int64_t chunks = 0;
};

/// Reads `scan`'s table in chunks of `maxRows`; nullopt when the plugin has no scan_chunk.
/// `tableRows` is how many rows the table holds: a read that goes on past them by more than a
/// chunk fails, naming the chunk that keeps coming back. Throws CaseFailure on a chunk of more
/// than maxRows rows or a key column missing from scan.columns.
std::optional<ChunkedRows> scanInChunks(core::DialectConnection& connection,
                                        const core::ScanSpec& scan, int64_t maxRows,
                                        size_t tableRows);

/// requireSameRows for a chunked read: "scan_chunk in chunks of 7: ...".
void requireChunkedRows(const std::string& table, int64_t maxRows,
                        const std::vector<RowText>& expected, const ChunkedRows& actual);

}  // namespace tapdiffgen::conformance

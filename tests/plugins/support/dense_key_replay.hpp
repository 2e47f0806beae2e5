// Pages of re-pulls whose keys form dense runs, which the SDK reads as ranges of the key
// (sdk/key_run.hpp), replayed over a table that changes between pages as an application
// changes it: inserts, deletes, and keys updated to other values. Each page's keys are read
// three ways, whose rows must be the same: in one fetch (dense runs as ranges), in
// fetch_rows_many beside another request, and in fetches too small for a run (the lookup path).
#pragma once

#include <string>

#include "plugin/dialect_connection.hpp"
#include "support/databases.hpp"

namespace tapdiffgen::testing {

struct DenseReplayCounts {
    int pages = 0;
    /// Pages whose keys the SDK takes dense runs of with a gap in one, so that a range also
    /// reads rows nobody asked for: all but every fourth page, whose stretch is sparse.
    int pagesWithGappedRuns = 0;
    /// Rows the three ways agreed on, over all pages.
    size_t rows = 0;
    /// Rows whose key a range covers without it being asked, present in the table as the page
    /// was read, over all pages: what the ranges read and the batches dropped.
    size_t unaskedRowsInRanges = 0;
};

/// Creates `table` (id BIGINT PRIMARY KEY, v VARCHAR(40), n INT) in `db` and replays the pages
/// over it through `connection`, checking every page (doctest CHECKs).
DenseReplayCounts replayDenseKeyPages(const DatabaseEnv& db, core::DialectConnection& connection,
                                      const std::string& table);

}  // namespace tapdiffgen::testing

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

/// Creates `table` (id BIGINT PRIMARY KEY, v VARCHAR(40), n INT) in `db` and replays twelve
/// pages over it through `connection`, checking every page and that the pages did read ranges
/// over rows they did not ask for (doctest CHECKs).
void checkDenseKeyPages(const DatabaseEnv& db, core::DialectConnection& connection,
                        const std::string& table);

}  // namespace tapdiffgen::testing

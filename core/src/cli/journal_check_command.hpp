// --check-journal: what a user runs after setting up the journal, before trusting a replica to
// it. For each configured table it lists what the catalog and the log say (triggers and the
// journal name they write, key columns against pk_column, partitions, foreign-key actions that
// bypass triggers, the table's oldest event), and for the whole journal the id sequence's
// cache, what the horizon needs and the log's bounds; with --state, how far each stream is
// behind and whether the log still covers its bookmark. Every finding that would lose changes
// is a problem, and any problem makes the exit status 1.
#pragma once

#include <memory>

#include "config/tap_config.hpp"
#include "plugin/dialect_connection.hpp"
#include "state/tap_state.hpp"

namespace tapdiffgen::core {

/// Writes the report to stdout; returns 0 when it found no problem, else 1. `state`: the
/// bookmarks to judge (--state), or none.
int checkJournal(const TapConfig& config, const TapState& state,
                 std::unique_ptr<DialectConnection> connection);

}  // namespace tapdiffgen::core

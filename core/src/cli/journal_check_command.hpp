// --check-journal: what a user runs after setting up the journal, before trusting a replica to
// it. It prints the findings a run's start-up checks act on (catalog/journal_findings.hpp),
// under the journal and each configured table: triggers with the journal name and the key
// columns they write, the key against pk_column, partitions, foreign-key actions that bypass
// triggers; the log's bounds and prune record, the id sequence's cache, what the horizon
// needs; with --state, how far each stream is behind and whether the log still covers its
// bookmark. It adds what only a report reads of the log: events under a partition's name and
// each table's oldest event. Every finding that would lose changes is a problem, and any
// problem makes the exit status 1.
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

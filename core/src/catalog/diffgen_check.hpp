// Checks, before any output, that the configured diffgen table exists and has the journal's
// columns, so a typo in diffgen_table is one clear error instead of a failure mid-run.
#pragma once

#include "catalog/journal_checks.hpp"
#include "config/tap_config.hpp"
#include "plugin/dialect_connection.hpp"

namespace tapdiffgen::core {

/// Throws DiscoveryError naming the table and what is missing.
void checkDiffgenTable(DialectConnection& connection, const TapConfig& config);

/// A table whose journal name has no event while diffgen holds events under a near name (the
/// configured table_name, the name without its schema, or one of its partitions as `facts`
/// list them) is almost surely misconfigured: its changes would be skipped without a word.
/// With the default journal name that is a DiscoveryError naming the table, both names and
/// the fix; with a journal_name given explicitly, a warning. Events under a partition's name
/// are warned about also when the table's own name has events. Costs one indexed page read
/// when no near name has events.
void checkJournalNames(DialectConnection& connection, const TapConfig& config,
                       const JournalFacts& facts);

}  // namespace tapdiffgen::core

// Checks, before any output, that the configured diffgen table exists and has the journal's
// columns, so a typo in diffgen_table is one clear error instead of a failure mid-run.
#pragma once

#include "config/tap_config.hpp"
#include "plugin/dialect_connection.hpp"

namespace tapdiffgen::core {

/// Throws DiscoveryError naming the table and what is missing.
void checkDiffgenTable(DialectConnection& connection, const TapConfig& config);

}  // namespace tapdiffgen::core

// The streams a sync runs, and every check that must pass before its first output.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "catalog/stream_definition.hpp"
#include "config/tap_config.hpp"
#include "plugin/dialect_connection.hpp"
#include "state/tap_state.hpp"

namespace tapdiffgen::core {

/// A catalog given with --catalog: its text, already checked for syntax, and its path.
struct CatalogFile {
    std::string text;
    std::string path;
};

/// The configured tables as streams, described by the plugin, with the diffgen table and the
/// journal checked (catalog/diffgen_check.hpp, catalog/journal_checks.hpp) and `catalog`'s
/// selection applied. A stream whose bookmark the log no longer covers and whose start_from is
/// when_needed loses its bookmark in `state`, so that the sync snapshots it again. Throws the
/// first problem as one line.
std::vector<StreamDefinition> streamsToSync(DialectConnection& connection, const TapConfig& config,
                                            const std::optional<CatalogFile>& catalog,
                                            TapState& state);

}  // namespace tapdiffgen::core

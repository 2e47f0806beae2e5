// The commands that talk to a database: --discover, --test and the sync itself.
#pragma once

#include "cli/command_line.hpp"
#include "config/tap_config.hpp"

namespace tapdiffgen::core {

/// Runs discovery, a test or a sync; returns the exit code. Throws on failure (the caller
/// turns every exception into one error line).
int runDatabaseCommand(const CommandLine& line, const TapConfig& config);

/// --list-plugins; returns the exit code.
int listPlugins(const CommandLine& line);

}  // namespace tapdiffgen::core

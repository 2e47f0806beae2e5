// The commands that talk to a database: --discover, --check-journal, --test and the sync
// itself, each handed to the part of the engine that owns it.
#pragma once

#include <memory>

#include "cli/command_line.hpp"
#include "config/tap_config.hpp"
#include "plugin/plugin.hpp"

namespace tapdiffgen::core {

/// Runs discovery, a test or a sync through `plugin`, the configured dialect's; returns the
/// exit code. Throws on failure (the caller turns every exception into one error line).
int runDatabaseCommand(const CommandLine& line, const TapConfig& config,
                       const std::shared_ptr<const Plugin>& plugin);

/// --list-plugins; returns the exit code.
int listPlugins(const CommandLine& line);

}  // namespace tapdiffgen::core

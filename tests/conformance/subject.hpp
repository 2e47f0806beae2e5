// The plugin under test: loaded through the production loader (so the runner sees exactly what
// the tap sees), plus its two raw entry points, which the ABI-level cases call directly with
// arguments the engine would never pass.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "plugin/plugin.hpp"
#include "tap-diffgen/dialect_abi.h"

namespace tapdiffgen::conformance {

struct Subject {
    std::shared_ptr<const core::Plugin> plugin;
    TdgPluginInfoFn info = nullptr;
    TdgDriverInitFn init = nullptr;

    const TdgDriver& driver() const { return plugin->driver(); }
};

/// Loads a plugin given as a dialect name (searched like the tap does, --plugin-dir first) or
/// as a path. Throws core::PluginLoadError with the loader's explanation.
Subject loadSubject(const std::string& nameOrPath, const std::vector<std::string>& pluginDirs);

}  // namespace tapdiffgen::conformance

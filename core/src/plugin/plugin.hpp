// A dialect plugin loaded into the process: its info block and its filled function table.
// Plugins are never unloaded (an error or batch from the library may outlive any owner), so a
// Plugin only ever holds the dlopen handle.
#pragma once

#include <string>
#include <vector>

#include "config/settings.hpp"
#include "tap-diffgen/dialect_abi.h"

namespace tapdiffgen::core {

class Plugin {
public:
    /// `info` as the plugin returned it: only its first info.struct_size bytes are read, so
    /// the fields an older plugin lacks read as zero. Throws PluginLoadError when its setting
    /// declarations cannot be used.
    Plugin(std::string path, const TdgPluginInfo& info, const TdgDriver& driver);

    const std::string& path() const { return path_; }
    const TdgPluginInfo& info() const { return info_; }
    const TdgDriver& driver() const { return driver_; }
    std::string dialect() const { return info_.dialect_name ? info_.dialect_name : ""; }
    std::vector<std::string> aliases() const;
    /// The settings it adds to the configuration.
    const PluginSettings& settings() const { return settings_; }

private:
    std::string path_;
    TdgPluginInfo info_;
    TdgDriver driver_;
    PluginSettings settings_;
};

}  // namespace tapdiffgen::core

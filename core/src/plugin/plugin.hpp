// A dialect plugin loaded into the process: its info block and its filled function table.
// Plugins are never unloaded (an error or batch from the library may outlive any owner), so a
// Plugin only ever holds the dlopen handle.
#pragma once

#include <string>
#include <vector>

#include "tap-diffgen/dialect_abi.h"

namespace tapdiffgen::core {

class Plugin {
public:
    Plugin(std::string path, const TdgPluginInfo& info, const TdgDriver& driver)
        : path_(std::move(path)), info_(info), driver_(driver) {}

    const std::string& path() const { return path_; }
    const TdgPluginInfo& info() const { return info_; }
    const TdgDriver& driver() const { return driver_; }
    std::string dialect() const { return info_.dialect_name ? info_.dialect_name : ""; }
    std::vector<std::string> aliases() const;

private:
    std::string path_;
    TdgPluginInfo info_;
    TdgDriver driver_;
};

}  // namespace tapdiffgen::core

// The settings dialect plugins declare in their info blocks (ABI revision 4), turned into
// entries of the tap's settings catalogue: for validating one run's configuration (the
// plugin it loads), and for documenting every installed plugin at once (--about, --man).
#pragma once

#include <string>
#include <vector>

#include "config/settings.hpp"
#include "tap-diffgen/dialect_abi.h"

namespace tapdiffgen::core {

/// The declarations of one plugin's info block, each a driver option of `dialect`. Throws
/// PluginLoadError naming the first declaration the tap cannot use (a bad name, one of the
/// tap's own settings, a default of the wrong type).
PluginSettings readDeclaredSettings(const TdgPluginInfo& info, const std::string& dialect);

/// The settings of several plugins as one list for documentation: a name declared by several
/// plugins appears once, listing them all, with the union of their allowed values; where the
/// allowed values differ the description says which dialect takes which.
std::vector<SettingSpec> mergedDeclaredSettings(const std::vector<PluginSettings>& plugins);

}  // namespace tapdiffgen::core

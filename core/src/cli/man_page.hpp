// The manual page tap-diffgen(1), composed from the parts --help prints and from the settings
// catalogue, so an option or a setting is never described twice. The hidden --man flag prints
// it; the build turns that output into tap-diffgen.1.gz for the Debian package.
#pragma once

#include <string>
#include <vector>

#include "config/settings.hpp"

namespace tapdiffgen::core {

/// The page in man(7) roff, ending in a newline; pluginSettings are those of the installed
/// dialect plugins.
std::string manPage(const std::vector<SettingSpec>& pluginSettings);

}  // namespace tapdiffgen::core

// Where plugins live relative to the executable and in the install tree. The relative path is
// the same in the build tree and in an installed tree, so neither needs an environment variable.
#pragma once

#include <optional>
#include <string>

namespace tapdiffgen::core {

/// <dir of /proc/self/exe>/../<libdir>/tap-diffgen/plugins, or nullopt if unknown.
std::optional<std::string> executableRelativePluginDir();

/// The compiled-in <prefix>/<libdir>/tap-diffgen/plugins.
std::string installedPluginDir();

}  // namespace tapdiffgen::core

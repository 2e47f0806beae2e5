#include "plugin/plugin_paths.hpp"

#include <filesystem>

#ifndef TAP_DIFFGEN_PLUGIN_RELATIVE_DIR
#error "TAP_DIFFGEN_PLUGIN_RELATIVE_DIR must be defined by the build"
#endif
#ifndef TAP_DIFFGEN_PLUGIN_INSTALL_DIR
#error "TAP_DIFFGEN_PLUGIN_INSTALL_DIR must be defined by the build"
#endif

namespace tapdiffgen::core {

std::optional<std::string> executableRelativePluginDir() {
    std::error_code error;
    std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", error);
    if (error) return std::nullopt;
    return (exe.parent_path() / ".." / TAP_DIFFGEN_PLUGIN_RELATIVE_DIR).lexically_normal().string();
}

std::string installedPluginDir() { return TAP_DIFFGEN_PLUGIN_INSTALL_DIR; }

}  // namespace tapdiffgen::core

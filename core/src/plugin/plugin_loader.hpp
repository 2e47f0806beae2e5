// Finds and loads dialect plugins. sql_dialect is a dialect name (or alias) or an absolute
// path to a .so. Names map to tap-diffgen-dialect-<name>.so, searched in order:
//   1. every --plugin-dir, in the order given;
//   2. TAP_DIFFGEN_PLUGIN_PATH (colon-separated);
//   3. <directory of the executable>/../<libdir>/tap-diffgen/plugins;
//   4. the compiled-in install directory.
// Never the current directory. A name that no file matches is looked up among the aliases of
// every plugin found. Failures list every place probed and why it failed.
#pragma once

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "plugin/plugin.hpp"
#include "util/tap_error.hpp"

namespace tapdiffgen::core {

/// A plugin could not be found or loaded; what() is the complete, multi-place explanation.
class PluginLoadError : public TapError {
public:
    explicit PluginLoadError(const std::string& message)
        : TapError(ErrorKind::Configuration, message) {}
};

/// One plugin file seen by list().
struct PluginListing {
    std::string path;
    std::string dialect;
    std::vector<std::string> aliases;
    std::string pluginVersion;
    std::string sdkVersion;
    int abiMin = 0;
    int abiMax = 0;
    std::string description;
    PluginSettings settings;
    std::string error;  // non-empty when the file is not a usable plugin
};

class PluginLoader {
public:
    /// Directories in search order; each entry is (directory, where it came from).
    explicit PluginLoader(std::vector<std::pair<std::string, std::string>> searchDirs);

    /// The standard order: cliDirs, then $TAP_DIFFGEN_PLUGIN_PATH, the executable-relative
    /// directory and the compiled-in one.
    static PluginLoader standard(const std::vector<std::string>& cliDirs);

    const std::vector<std::pair<std::string, std::string>>& searchDirs() const { return dirs_; }

    /// Loads by dialect name, alias or absolute path. Throws PluginLoadError.
    std::shared_ptr<const Plugin> load(const std::string& dialectOrPath);

    /// Every plugin file in the search directories, first occurrence of each dialect wins.
    std::vector<PluginListing> list();

    /// The file name a dialect name maps to.
    static std::string fileNameFor(const std::string& dialect);

private:
    std::vector<std::pair<std::string, std::string>> dirs_;
    std::map<std::string, std::shared_ptr<const Plugin>> loaded_;
};

/// Loads one file as a plugin (dlopen, info block, ABI negotiation, table fill).
/// Throws PluginLoadError with the reason (loader message, ABI versions, init error).
std::shared_ptr<const Plugin> loadPluginFile(const std::string& path);

}  // namespace tapdiffgen::core

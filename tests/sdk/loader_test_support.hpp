// Small helpers for the loader tests: process state that a test changes and must put back
// (environment variables, the working directory), and the text of a refused load.
#pragma once

#include <optional>
#include <string>

#include "plugin/plugin_loader.hpp"

namespace tapdiffgen::testing {

/// Sets (or, with nullopt, unsets) an environment variable until the end of the scope.
class ScopedEnv {
public:
    ScopedEnv(std::string name, const std::optional<std::string>& value);
    ~ScopedEnv();
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
    std::string name_;
    std::optional<std::string> previous_;
};

/// Changes the working directory until the end of the scope.
class ScopedCwd {
public:
    explicit ScopedCwd(const std::string& directory);
    ~ScopedCwd();
    ScopedCwd(const ScopedCwd&) = delete;
    ScopedCwd& operator=(const ScopedCwd&) = delete;

private:
    std::string previous_;
};

/// The PluginLoadError text of loading `dialectOrPath`; throws when the load succeeds.
std::string loadError(core::PluginLoader& loader, const std::string& dialectOrPath);

/// Whether `text` has `part` in it.
inline bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

/// Copies `source` to `directory`/`fileName`, creating the directory; returns the new path.
std::string copyInto(const std::string& source, const std::string& directory,
                     const std::string& fileName);

}  // namespace tapdiffgen::testing

// Scratch directories, files and environment variables for the configuration tests.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "config/settings.hpp"
#include "config/tap_config.hpp"

namespace tapdiffgen::core::testing {

/// A fresh directory under the system temp dir, removed with everything in it.
class TempDir {
public:
    TempDir() {
        std::string pattern =
            (std::filesystem::temp_directory_path() / "tdg-config-test-XXXXXX").string();
        if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
        path_ = pattern;
    }
    ~TempDir() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::string& path() const { return path_; }

    /// Writes `content` to <dir>/<name> and returns the full path.
    std::string write(const std::string& name, const std::string& content) const {
        const std::string file = path_ + "/" + name;
        std::ofstream(file, std::ios::binary) << content;
        return file;
    }

private:
    std::string path_;
};

/// Sets (or unsets) one environment variable for its lifetime, then restores it.
class ScopedEnv {
public:
    ScopedEnv(std::string name, const std::optional<std::string>& value) : name_(std::move(name)) {
        if (const char* old = ::getenv(name_.c_str())) previous_ = old;
        if (value) {
            ::setenv(name_.c_str(), value->c_str(), 1);
        } else {
            ::unsetenv(name_.c_str());
        }
    }
    ~ScopedEnv() {
        if (previous_) {
            ::setenv(name_.c_str(), previous_->c_str(), 1);
        } else {
            ::unsetenv(name_.c_str());
        }
    }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
    std::string name_;
    std::optional<std::string> previous_;
};

/// Unsets every TAP_DIFFGEN_<SETTING> variable, so the caller's environment cannot leak in.
class CleanSettingEnvironment {
public:
    CleanSettingEnvironment() {
        for (const auto& spec : flatSettingSpecs()) {
            guards_.emplace_back(
                std::make_unique<ScopedEnv>(settingEnvVar(spec.name), std::nullopt));
        }
    }

private:
    std::vector<std::unique_ptr<ScopedEnv>> guards_;
};

/// The ConfigError message `load` throws, or "(no error)".
inline std::string configErrorOf(const std::function<void()>& load) {
    try {
        load();
    } catch (const ConfigError& e) {
        return e.what();
    }
    return "(no error)";
}

/// The ConfigError message of parsing the config text `json`, or "(no error)".
inline std::string parseErrorOf(const std::string& json) {
    return configErrorOf([&] { parseConfigObject(json); });
}

/// The connection option `name` of a loaded config, or "(unset)".
inline std::string option(const TapConfig& config, const std::string& name) {
    const std::string* value = config.connectionOption(name);
    return value ? *value : "(unset)";
}

/// The smallest valid config, with `extra` members spliced in (",\"port\":1" style).
inline std::string minimalConfig(const std::string& extra = "") {
    return R"({"sql_dialect":"postgres","tables":[{"table_name":"invoices","pk_column":"id"}])" +
           extra + "}";
}

}  // namespace tapdiffgen::core::testing

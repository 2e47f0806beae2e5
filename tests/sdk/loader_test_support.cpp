#include "loader_test_support.hpp"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace tapdiffgen::testing {
namespace fs = std::filesystem;

ScopedEnv::ScopedEnv(std::string name, const std::optional<std::string>& value)
    : name_(std::move(name)) {
    if (const char* current = std::getenv(name_.c_str()); current != nullptr) {
        previous_ = current;
    }
    if (value) {
        setenv(name_.c_str(), value->c_str(), 1);
    } else {
        unsetenv(name_.c_str());
    }
}

ScopedEnv::~ScopedEnv() {
    if (previous_) {
        setenv(name_.c_str(), previous_->c_str(), 1);
    } else {
        unsetenv(name_.c_str());
    }
}

ScopedCwd::ScopedCwd(const std::string& directory) : previous_(fs::current_path().string()) {
    fs::current_path(directory);
}

ScopedCwd::~ScopedCwd() {
    std::error_code ignored;
    fs::current_path(previous_, ignored);
}

std::string loadError(core::PluginLoader& loader, const std::string& dialectOrPath) {
    try {
        auto plugin = loader.load(dialectOrPath);
    } catch (const core::PluginLoadError& failure) {
        return failure.what();
    }
    throw std::runtime_error("'" + dialectOrPath + "' loaded although it should not");
}

std::string copyInto(const std::string& source, const std::string& directory,
                     const std::string& fileName) {
    fs::create_directories(directory);
    fs::path target = fs::path(directory) / fileName;
    fs::copy_file(source, target, fs::copy_options::overwrite_existing);
    return target.string();
}

}  // namespace tapdiffgen::testing

#include "case_files.hpp"

#include <Poco/JSON/Parser.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

#ifndef TDG_CONFORMANCE_CASES_RELATIVE_DIR
#error "TDG_CONFORMANCE_CASES_RELATIVE_DIR must be defined by the build"
#endif

namespace tapdiffgen::conformance {
namespace fs = std::filesystem;

namespace {

std::optional<std::string> readIfExists(const fs::path& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) return std::nullopt;
    std::stringstream content;
    content << file.rdbuf();
    return content.str();
}

Poco::JSON::Object::Ptr parseObject(const fs::path& path, const std::string& text) {
    try {
        return Poco::JSON::Parser().parse(text).extract<Poco::JSON::Object::Ptr>();
    } catch (const std::exception& failure) {
        throw std::runtime_error(path.string() + " is not a JSON object: " + failure.what());
    }
}

// The dialect's file when there is one, else the common one.
std::optional<std::string> pick(const fs::path& directory, const std::string& stem,
                                const std::string& extension, const std::string& dialect) {
    if (auto specific = readIfExists(directory / (stem + "." + dialect + extension))) {
        return specific;
    }
    return readIfExists(directory / (stem + extension));
}

}  // namespace

fs::path installedCasesDirectory() {
    std::error_code error;
    fs::path exe = fs::read_symlink("/proc/self/exe", error);
    if (error) return {};
    return (exe.parent_path() / ".." / TDG_CONFORMANCE_CASES_RELATIVE_DIR).lexically_normal();
}

std::vector<fs::path> caseDirectories(const fs::path& casesDir) {
    std::vector<fs::path> found;
    for (const auto& entry : fs::directory_iterator(casesDir)) {
        if (entry.is_directory() && fs::exists(entry.path() / "expected.json")) {
            found.push_back(entry.path());
        }
    }
    std::sort(found.begin(), found.end());
    return found;
}

CaseFiles loadCaseFiles(const fs::path& directory, const Overrides& overrides) {
    CaseFiles files;
    files.name = directory.filename().string();
    files.directory = directory;
    const fs::path base = directory / "expected.json";
    files.expected = parseObject(base, readIfExists(base).value_or(""));
    const fs::path overridePath = directory / ("expected." + overrides.expected + ".json");
    if (auto text = readIfExists(overridePath)) {
        Poco::JSON::Object::Ptr changes = parseObject(overridePath, *text);
        for (const auto& [key, value] : *changes) files.expected->set(key, value);
    }
    files.setupSql = pick(directory, "setup", ".sql", overrides.setup);
    files.teardownSql = pick(directory, "teardown", ".sql", overrides.setup);
    files.writerSql = pick(directory, "writer", ".sql", overrides.setup);
    return files;
}

}  // namespace tapdiffgen::conformance

#include "case_files.hpp"

#include <Poco/JSON/Parser.h>

#include <algorithm>
#include <fstream>
#include <map>
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

std::string quotedName(const std::string& name) {
    std::string out = "\"";
    for (char c : name) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

// The document for Poco's parser, which refuses or rounds numbers beyond a double's 15 digits
// (-9223372036854775808, a 38-digit numeric): those become strings of their digits. The checks
// compare values through CaseFiles::exact, which keeps every number as written.
void appendPocoReadable(const testing::ExactJson& value, std::string& out) {
    using Type = testing::ExactJson::Type;
    switch (value.type()) {
        case Type::Number:
            out += value.scalar().size() > 15 ? "\"" + value.scalar() + "\"" : value.scalar();
            return;
        case Type::Array:
            out += '[';
            for (size_t i = 0; i < value.items().size(); ++i) {
                if (i > 0) out += ',';
                appendPocoReadable(value.items()[i], out);
            }
            out += ']';
            return;
        case Type::Object:
            out += '{';
            for (size_t i = 0; i < value.members().size(); ++i) {
                if (i > 0) out += ',';
                out += quotedName(value.members()[i].first) + ":";
                appendPocoReadable(value.members()[i].second, out);
            }
            out += '}';
            return;
        default:
            out += value.canonical();
    }
}

Poco::JSON::Object::Ptr parseObject(const fs::path& path, const std::string& text) {
    try {
        std::string readable;
        appendPocoReadable(testing::ExactJson::parse(text), readable);
        return Poco::JSON::Parser().parse(readable).extract<Poco::JSON::Object::Ptr>();
    } catch (const std::exception& failure) {
        throw std::runtime_error(path.string() + " is not a JSON object: " + failure.what());
    }
}

testing::ExactJson parseExact(const std::string& text) {
    try {
        return testing::ExactJson::parse(text);
    } catch (const std::invalid_argument&) {
        return {};  // parseObject has said what is wrong with it
    }
}

// The first of `directories` that holds `file`.
std::optional<std::string> firstOf(const std::vector<fs::path>& directories,
                                   const std::string& file) {
    for (const fs::path& directory : directories) {
        if (auto text = readIfExists(directory / file)) return text;
    }
    return std::nullopt;
}

// The dialect's file when there is one in any of the directories, else the common one.
std::optional<std::string> pick(const std::vector<fs::path>& directories, const std::string& stem,
                                const std::string& extension, const std::string& dialect) {
    if (auto specific = firstOf(directories, stem + "." + dialect + extension)) return specific;
    return firstOf(directories, stem + extension);
}

bool holdsCase(const fs::path& directory) {
    std::error_code error;
    return fs::is_directory(directory, error) && fs::exists(directory / "expected.json", error);
}

}  // namespace

fs::path installedCasesDirectory() {
    std::error_code error;
    fs::path exe = fs::read_symlink("/proc/self/exe", error);
    if (error) return {};
    return (exe.parent_path() / ".." / TDG_CONFORMANCE_CASES_RELATIVE_DIR).lexically_normal();
}

std::vector<CaseLocation> caseLocations(const fs::path& casesDir,
                                        const std::optional<fs::path>& overridesDir) {
    std::map<std::string, CaseLocation> cases;
    for (const auto& entry : fs::directory_iterator(casesDir)) {
        if (!holdsCase(entry.path())) continue;
        std::string name = entry.path().filename().string();
        cases[name] = {name, {entry.path()}};
    }
    if (overridesDir) {
        for (const auto& entry : fs::directory_iterator(*overridesDir)) {
            if (!entry.is_directory()) continue;
            std::string name = entry.path().filename().string();
            auto found = cases.find(name);
            if (found != cases.end()) {
                found->second.directories.insert(found->second.directories.begin(), entry.path());
            } else if (holdsCase(entry.path())) {
                cases[name] = {name, {entry.path()}};
            }
        }
    }
    std::vector<CaseLocation> sorted;
    for (auto& [name, location] : cases) sorted.push_back(std::move(location));
    return sorted;
}

CaseFiles loadCaseFiles(const CaseLocation& location, const Overrides& overrides) {
    CaseFiles files;
    files.name = location.name;
    const std::string base = "expected.json";
    files.expected =
        parseObject(location.name + "/" + base, firstOf(location.directories, base).value_or(""));
    const std::string specific = "expected." + overrides.expected + ".json";
    files.exact = parseExact(firstOf(location.directories, base).value_or(""));
    if (auto text = firstOf(location.directories, specific)) {
        Poco::JSON::Object::Ptr changes = parseObject(location.name + "/" + specific, *text);
        for (const auto& [key, value] : *changes) files.expected->set(key, value);
        files.exact = files.exact.withMembersOf(parseExact(*text));
    }
    files.setupSql = pick(location.directories, "setup", ".sql", overrides.setup);
    files.teardownSql = pick(location.directories, "teardown", ".sql", overrides.setup);
    files.writerSql = pick(location.directories, "writer", ".sql", overrides.setup);
    return files;
}

}  // namespace tapdiffgen::conformance

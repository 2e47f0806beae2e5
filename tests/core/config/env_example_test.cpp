// .env.example documents exactly the settings of the catalogue, each with its description.
#include <doctest/doctest.h>

#include <cctype>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>

#include "config/dotenv.hpp"
#include "config/settings.hpp"
#include "plugin/declared_settings.hpp"
#include "plugin/plugin_loader.hpp"

using namespace tapdiffgen::core;

namespace {

std::string readExample() {
    std::ifstream in(TDG_ENV_EXAMPLE_PATH, std::ios::binary);
    REQUIRE(in);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Every "TAP_DIFFGEN_X=" at the start of a line, also when commented out as "# TAP_DIFFGEN_X=".
std::set<std::string> documentedVariables(const std::string& text) {
    const std::string prefix = "TAP_DIFFGEN_";
    std::set<std::string> variables;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("# ", 0) == 0) line.erase(0, 2);
        const auto equals = line.find('=');
        if (line.rfind(prefix, 0) != 0 || equals == std::string::npos) continue;
        const std::string name = line.substr(0, equals);
        if (name.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == std::string::npos) {
            variables.insert(name);
        }
    }
    return variables;
}

// The tap's settings and those the first-party plugins declare.
std::vector<SettingSpec> documentedSettings() {
    std::vector<SettingSpec> specs = flatSettingSpecs();
    PluginLoader loader(std::vector<std::pair<std::string, std::string>>{
        {TDG_FIRST_PARTY_PLUGIN_DIR, "build tree"}});
    std::vector<PluginSettings> plugins;
    for (const auto& listing : loader.list()) {
        REQUIRE(listing.error.empty());
        plugins.push_back(listing.settings);
    }
    REQUIRE(plugins.size() == 3);
    for (const auto& spec : mergedDeclaredSettings(plugins)) specs.push_back(spec);
    return specs;
}

std::set<std::string> settingVariables() {
    std::set<std::string> variables;
    for (const auto& spec : documentedSettings()) variables.insert(settingEnvVar(spec.name));
    return variables;
}

// The comment line right above a variable's line ("# ..." without the "# ").
std::string commentAbove(const std::string& text, const std::string& variable) {
    std::istringstream lines(text);
    std::string previous;
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind(variable + "=", 0) == 0 || line.rfind("# " + variable + "=", 0) == 0) {
            return previous.rfind("# ", 0) == 0 ? previous.substr(2) : std::string();
        }
        previous = line;
    }
    return {};
}

}  // namespace

TEST_CASE(".env.example names every setting's variable and nothing else") {
    const std::set<std::string> expected = settingVariables();
    CHECK(expected.count("TAP_DIFFGEN_SSL_MODE") == 1);
    CHECK(documentedVariables(readExample()) == expected);
}

TEST_CASE(".env.example describes each setting as --about does, annotations after") {
    const std::string example = readExample();
    for (const auto& spec : documentedSettings()) {
        CAPTURE(spec.name);
        std::string description = spec.description;
        if (!description.empty() && description.back() == '.') description.pop_back();
        CHECK(commentAbove(example, settingEnvVar(spec.name)).rfind(description, 0) == 0);
    }
}

TEST_CASE(".env.example parses cleanly as a .env file") {
    const auto parsed = parseDotenv(readExample());
    CHECK(parsed.badLines.empty());
    const std::set<std::string> variables = settingVariables();
    for (const auto& [key, value] : parsed.values) {
        CAPTURE(key);
        CHECK(variables.count(key) == 1);
    }
}

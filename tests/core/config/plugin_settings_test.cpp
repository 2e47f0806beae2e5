// Settings a dialect plugin declares: validated like the tap's own, read from the environment,
// passed to the plugin when given, and the only unknown-looking settings that draw no warning.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "config/settings.hpp"
#include "config/tap_config.hpp"
#include "config_test_support.hpp"
#include "util/json_value.hpp"

using namespace tapdiffgen::core;
using tapdiffgen::core::testing::CleanSettingEnvironment;
using tapdiffgen::core::testing::minimalConfig;
using tapdiffgen::core::testing::option;
using tapdiffgen::core::testing::ScopedEnv;
using tapdiffgen::core::testing::TempDir;

namespace {

SettingSpec declared(const std::string& name, const std::string& type) {
    SettingSpec spec;
    spec.name = name;
    spec.type = type;
    spec.description = "A setting of the plugin.";
    spec.driverOption = true;
    spec.dialects = {"postgres"};
    return spec;
}

// What a plugin of revision 4 might declare: an enumerated string and a bounded integer.
PluginSettings examplePlugin() {
    PluginSettings plugin;
    plugin.declared = true;
    SettingSpec mode = declared("ssl_mode", "string");
    mode.allowed = {"disable", "require"};
    mode.defaultJson = "\"disable\"";
    SettingSpec rows = declared("rows_per_fetch", "integer");
    rows.minimum = 1;
    rows.maximum = 100000;
    plugin.specs = {mode, rows};
    return plugin;
}

TapConfig parsed(const std::string& json, const PluginSettings& plugin) {
    return parseConfigObject(jsonvalue::parse(json).extract<Poco::JSON::Object::Ptr>(), plugin);
}

std::string errorOf(const std::string& json, const PluginSettings& plugin) {
    return testing::configErrorOf([&] { parsed(json, plugin); });
}

}  // namespace

TEST_CASE("a declared setting is checked against its declaration, naming it") {
    const PluginSettings plugin = examplePlugin();
    CHECK(errorOf(minimalConfig(R"(,"ssl_mode":"on")"), plugin) ==
          "'on' is not one of ['disable', 'require'] in config['ssl_mode']");
    CHECK(errorOf(minimalConfig(R"(,"rows_per_fetch":0)"), plugin) ==
          "0 is less than the minimum of 1 in config['rows_per_fetch']");
    CHECK(errorOf(minimalConfig(R"(,"rows_per_fetch":"many")"), plugin) ==
          "'many' is not of type 'integer' in config['rows_per_fetch']");
    CHECK(errorOf(minimalConfig(R"(,"rows_per_fetch":100001)"), plugin) ==
          "100001 is greater than the maximum of 100000 in config['rows_per_fetch']");
    CHECK(errorOf(minimalConfig(R"(,"ssl_mode":"require","rows_per_fetch":5)"), plugin) ==
          "(no error)");
}

TEST_CASE("a declared setting reaches the plugin only when given, and draws no warning") {
    const PluginSettings plugin = examplePlugin();
    const TapConfig config =
        parsed(minimalConfig(R"(,"rows_per_fetch":250,"keepalives":true)"), plugin);
    CHECK(option(config, "rows_per_fetch") == "250");
    // Its default is the plugin's to apply, as the declaration documents it.
    CHECK(option(config, "ssl_mode") == "(unset)");
    // What no one declared stays with the tap, with the usual warning.
    CHECK(option(config, "keepalives") == "(unset)");
    CHECK(config.warnings == std::vector<std::string>{"unknown setting 'keepalives' in config"});
}

TEST_CASE("an unknown setting is matched against the plugin's names too") {
    const TapConfig config = parsed(minimalConfig(R"(,"rows_per_fetc":3)"), examplePlugin());
    CHECK(config.warnings ==
          std::vector<std::string>{
              "unknown setting 'rows_per_fetc' in config (did you mean 'rows_per_fetch'?)"});
}

TEST_CASE("a plugin too old to declare settings still gets every unknown scalar setting") {
    const TapConfig config =
        parsed(minimalConfig(R"(,"keepalives":true,"nested":{"a":1})"), PluginSettings{});
    CHECK(option(config, "keepalives") == "true");
    CHECK(option(config, "nested") == "(unset)");
}

TEST_CASE("loading asks for the plugin of the configured dialect, after the tap's own checks") {
    CleanSettingEnvironment clean;
    TempDir dir;
    std::vector<std::string> asked;
    const auto lookup = [&](const std::string& dialect) {
        asked.push_back(dialect);
        return examplePlugin();
    };
    const TapConfig config = loadConfig(
        {dir.write("c.json", minimalConfig(R"(,"rows_per_fetch":7)"))}, dir.path(), lookup);
    CHECK(asked == std::vector<std::string>{"postgres"});
    CHECK(option(config, "rows_per_fetch") == "7");

    asked.clear();
    const std::string broken = dir.write("broken.json", minimalConfig(R"(,"page_size":0)"));
    CHECK_THROWS_WITH_AS(loadConfig({broken}, dir.path(), lookup),
                         "0 is less than the minimum of 1 in config['page_size']", ConfigError);
    CHECK(asked.empty());
}

TEST_CASE("under --config ENV a declared setting is read from its variable and from .env") {
    CleanSettingEnvironment clean;
    TempDir dir;
    const auto lookup = [](const std::string&) { return examplePlugin(); };
    const std::string file = dir.write("c.json", minimalConfig());
    dir.write(".env", "TAP_DIFFGEN_SSL_MODE=require\n");
    {
        ScopedEnv rows("TAP_DIFFGEN_ROWS_PER_FETCH", "12");
        const TapConfig config = loadConfig({file, "ENV"}, dir.path(), lookup);
        CHECK(option(config, "rows_per_fetch") == "12");
        CHECK(option(config, "ssl_mode") == "require");
    }
    ScopedEnv rows("TAP_DIFFGEN_ROWS_PER_FETCH", "0");
    CHECK_THROWS_WITH_AS(loadConfig({file, "ENV"}, dir.path(), lookup),
                         "0 is less than the minimum of 1 in config['rows_per_fetch']",
                         ConfigError);
}

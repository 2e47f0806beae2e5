// Settings a plugin declares (ABI revision 4), end to end: the skeleton example declares
// rows_per_fetch, and the real tap lists it, validates it from a file and from the
// environment, passes it on without an "unknown setting" warning, and the plugin's own connect
// checks it against the same declaration. A plugin that declares one of the tap's own
// settings is refused.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <string>

#include "loader_test_support.hpp"
#include "plugin/declared_settings.hpp"
#include "plugin/plugin_loader.hpp"
#include "support/tap_process.hpp"

namespace {

using tapdiffgen::core::loadPluginFile;
using tapdiffgen::core::mergedDeclaredSettings;
using tapdiffgen::core::PluginLoader;
using tapdiffgen::core::PluginSettings;
using tapdiffgen::core::SettingSpec;
using tapdiffgen::testing::contains;
using tapdiffgen::testing::ScopedEnv;
using tapdiffgen::testing::ScratchDir;

const std::string kSkeletonDir = TDG_SKELETON_PLUGIN_DIR;
const std::string kSkeletonPlugin = kSkeletonDir + "/tap-diffgen-dialect-skeleton.so";

std::string skeletonConfig(const ScratchDir& scratch, const std::string& extra) {
    const std::string path = scratch.path() + "/config.json";
    std::ofstream(path)
        << R"({"sql_dialect":"skeleton","tables":[{"table_name":"t","pk_column":"id"}])" << extra
        << "}";
    return path;
}

tapdiffgen::testing::TapRun runSkeleton(const std::vector<std::string>& arguments) {
    std::vector<std::string> all = {"--plugin-dir", kSkeletonDir};
    all.insert(all.end(), arguments.begin(), arguments.end());
    return tapdiffgen::testing::runTapBinary(all);
}

// Connects straight through the plugin's table, as the tap would, and returns the error text.
std::string connectError(const std::vector<TdgOption>& options, TdgStatus& status) {
    auto plugin = loadPluginFile(kSkeletonPlugin);
    TdgConnectParams params{};
    params.struct_size = sizeof params;
    params.options = options.data();
    params.num_options = static_cast<int32_t>(options.size());
    TdgConnection* connection = nullptr;
    TdgError error{};
    status = plugin->driver().connect(&params, &connection, &error);
    if (connection != nullptr) plugin->driver().close(connection);
    std::string message = error.message ? error.message : "";
    if (error.release) error.release(&error);
    return message;
}

}  // namespace

TEST_CASE("the skeleton's declaration reaches the tap as a catalogue entry") {
    const auto plugin = loadPluginFile(kSkeletonPlugin);
    REQUIRE(plugin->settings().declared);
    REQUIRE(plugin->settings().specs.size() == 1);
    const SettingSpec& rows = plugin->settings().specs[0];
    CHECK(rows.name == "rows_per_fetch");
    CHECK(rows.type == "integer");
    CHECK(rows.defaultJson == std::optional<std::string>("1000"));
    CHECK(rows.minimum == std::optional<std::int64_t>(1));
    CHECK(rows.maximum == std::optional<std::int64_t>(100000));
    CHECK(rows.driverOption);
    CHECK_FALSE(rows.secret);
    CHECK(rows.dialects == std::vector<std::string>{"skeleton"});
}

TEST_CASE("tap-diffgen --about lists the settings of the plugins it finds") {
    const auto run = runSkeleton({"--about"});
    REQUIRE(run.exitCode == 0);
    std::string out;
    for (const auto& line : run.lines) out += line + "\n";
    CHECK(contains(out,
                   "  - Name: rows_per_fetch\n    Type: integer\n"
                   "    Environment Variable: TAP_DIFFGEN_ROWS_PER_FETCH\n    Default: 1000\n"
                   "    Dialects: skeleton\n"
                   "    Description: Rows the skeleton asks its server for in one round trip.\n"));
}

TEST_CASE("tap-diffgen --about lists the settings of a plugin the configuration names by path") {
    ScratchDir scratch;
    const std::string config = scratch.path() + "/config.json";
    std::ofstream(config) << R"({"sql_dialect":")" << kSkeletonPlugin << R"("})";
    // No --plugin-dir: no directory the tap searches holds the skeleton.
    const auto alone = tapdiffgen::testing::runTapBinary({"--about"});
    REQUIRE(alone.exitCode == 0);
    const auto configured = tapdiffgen::testing::runTapBinary({"--about", "--config", config});
    REQUIRE(configured.exitCode == 0);
    auto text = [](const tapdiffgen::testing::TapRun& run) {
        std::string out;
        for (const auto& line : run.lines) out += line + "\n";
        return out;
    };
    CHECK_FALSE(contains(text(alone), "rows_per_fetch"));
    CHECK(contains(text(configured), "  - Name: rows_per_fetch\n"));
    CHECK(contains(text(configured), "    Dialects: skeleton\n"));

    std::ofstream(config) << R"({"sql_dialect":"/nonexistent/tap-diffgen-dialect-x.so"})";
    const auto missing = tapdiffgen::testing::runTapBinary({"--about", "--config", config});
    CHECK(missing.exitCode == 1);
    CHECK(contains(missing.stderrText, "/nonexistent/tap-diffgen-dialect-x.so"));
}

TEST_CASE("a declared setting out of bounds stops the run before it connects, naming it") {
    ScratchDir scratch;
    const auto run = runSkeleton({"--config", skeletonConfig(scratch, R"(,"rows_per_fetch":0)")});
    CHECK(run.exitCode == 1);
    CHECK(run.lines.empty());
    CHECK(
        contains(run.stderrText, "0 is less than the minimum of 1 in config['rows_per_fetch']\n"));
    CHECK(std::count(run.stderrText.begin(), run.stderrText.end(), '\n') == 1);
}

TEST_CASE("a declared setting is read from the environment under --config ENV") {
    ScratchDir scratch;
    ScopedEnv rows("TAP_DIFFGEN_ROWS_PER_FETCH", std::string("many"));
    const auto run = runSkeleton({"--config", skeletonConfig(scratch, ""), "--config", "ENV"});
    CHECK(run.exitCode == 1);
    CHECK(contains(run.stderrText, "'many' is not of type 'integer' in config['rows_per_fetch']"));
}

TEST_CASE("a valid declared setting draws no unknown-setting warning") {
    ScratchDir scratch;
    const auto run = runSkeleton(
        {"--config", skeletonConfig(scratch, R"(,"rows_per_fetch":50,"row_per_fetch":1)"),
         "--discover"});
    CHECK_FALSE(contains(run.stderrText, "unknown setting 'rows_per_fetch'"));
    CHECK(contains(run.stderrText,
                   "unknown setting 'row_per_fetch' in config (did you mean 'rows_per_fetch'?)"));
}

TEST_CASE("the plugin's connect checks its options against the same declaration") {
    TdgStatus status = TDG_OK;
    const std::string message = connectError({{"rows_per_fetch", "abc"}}, status);
    CHECK(status == TDG_INVALID_ARGUMENT);
    CHECK(message ==
          "setting 'rows_per_fetch' must be an integer between 1 and 100000 (got 'abc')");
    connectError({{"rows_per_fetch", "100001"}}, status);
    CHECK(status == TDG_INVALID_ARGUMENT);
    connectError({{"rows_per_fetch", "100000"}}, status);
    CHECK(status == TDG_OK);
}

TEST_CASE("a plugin that declares one of the tap's own settings is refused") {
    PluginLoader loader({{std::string(TDG_BROKEN_PLUGIN_DIR), std::string("--plugin-dir")}});
    CHECK(contains(tapdiffgen::testing::loadError(loader, "coresetting"),
                   "the plugin's setting 'host' is a setting of the tap itself; a plugin cannot "
                   "declare it"));
}

TEST_CASE("settings several plugins declare are documented once, per dialect where they differ") {
    const auto spec = [](const std::string& dialect, std::vector<std::string> allowed) {
        SettingSpec mode;
        mode.name = "ssl_mode";
        mode.type = "string";
        mode.description = "TLS mode.";
        mode.allowed = std::move(allowed);
        mode.dialects = {dialect};
        return mode;
    };
    PluginSettings first{true, {spec("mysql", {"disable", "REQUIRED"})}};
    PluginSettings second{true, {spec("postgres", {"disable", "allow"})}};
    const auto merged = mergedDeclaredSettings({first, second});
    REQUIRE(merged.size() == 1);
    CHECK(merged[0].dialects == std::vector<std::string>{"mysql", "postgres"});
    CHECK(merged[0].allowed == std::vector<std::string>{"disable", "REQUIRED", "allow"});
    CHECK(merged[0].description == "TLS mode. mysql: disable, REQUIRED; postgres: disable, allow.");
    const auto same = mergedDeclaredSettings({first, first});
    CHECK(same[0].description == "TLS mode.");
}

#include "cli/tap_main.hpp"

#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <set>

#include "cli/about.hpp"
#include "cli/command_line.hpp"
#include "cli/man_page.hpp"
#include "cli/sync_command.hpp"
#include "config/tap_config.hpp"
#include "plugin/declared_settings.hpp"
#include "plugin/plugin_loader.hpp"
#include "util/log.hpp"
#include "util/tap_error.hpp"

namespace tapdiffgen::core {
namespace {

int fail(const std::string& message, int code) {
    log::error(message);
    return code;
}

// What --about and --man document beside the tap's own settings: every installed plugin's,
// and those of a plugin the --config files name by its path, which no directory lists.
std::vector<SettingSpec> installedPluginSettings(const CommandLine& line) {
    PluginLoader loader = PluginLoader::standard(line.pluginDirs);
    std::vector<PluginSettings> plugins;
    std::set<std::string> listed;
    for (const PluginListing& listing : loader.list()) {
        if (!listing.error.empty()) continue;
        plugins.push_back(listing.settings);
        listed.insert(std::filesystem::weakly_canonical(listing.path).string());
    }
    const std::string dialect =
        line.configs.empty()
            ? std::string()
            : configuredDialect(line.configs, std::filesystem::current_path().string());
    if (!dialect.empty() && dialect.front() == '/' &&
        listed.count(std::filesystem::weakly_canonical(dialect).string()) == 0) {
        plugins.push_back(loader.load(dialect)->settings());
    }
    return mergedDeclaredSettings(plugins);
}

int dispatch(int argc, char** argv) {
    CommandLine line = parseCommandLine(argc, argv);
    if (line.help) {
        std::cout << helpText();
        return 0;
    }
    if (line.man) {
        std::cout << manPage(installedPluginSettings(line));
        return 0;
    }
    if (line.version) {
        std::cout << "tap-diffgen v" << TAP_DIFFGEN_VERSION << "\n";
        return 0;
    }
    if (line.about) {
        std::cout << aboutText(line.format, installedPluginSettings(line)) << std::flush;
        return 0;
    }
    if (line.listPlugins) return listPlugins(line);
    if (line.configs.empty()) {
        throw UsageError("--config is required");
    }
    PluginLoader loader = PluginLoader::standard(line.pluginDirs);
    std::shared_ptr<const Plugin> plugin;
    TapConfig config = loadConfig(line.configs, std::filesystem::current_path().string(),
                                  [&](const std::string& dialect) {
                                      plugin = loader.load(dialect);
                                      return plugin->settings();
                                  });
    log::setLevel(log::levelFromName(config.logLevel));
    for (const auto& warning : config.warnings) log::warning(warning);
    return runDatabaseCommand(line, config, plugin);
}

}  // namespace

int tapMain(int argc, char** argv) {
    // Every failure ends here as one line on stderr and a non-zero exit: no stack trace, and
    // messages never carry a password (the drivers and the config loader see to that).
    try {
        return dispatch(argc, argv);
    } catch (const std::exception& failure) {
        const FailureReport report = reportOf(failure);
        return fail(report.line, report.exitCode);
    }
}

}  // namespace tapdiffgen::core

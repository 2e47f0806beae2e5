// tap-diffgen-conformance: the checks every dialect plugin must pass, runnable by anyone who
// writes one (see usageText() and sdk/README.md).
#include <filesystem>
#include <iostream>

#include "abi_cases.hpp"
#include "case_files.hpp"
#include "connection_options.hpp"
#include "isolated_run.hpp"
#include "live_cases.hpp"
#include "plugin/plugin_loader.hpp"
#include "report.hpp"
#include "runner_options.hpp"
#include "subject.hpp"

namespace {

using namespace tapdiffgen::conformance;
namespace fs = std::filesystem;

constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;

bool selected(const RunnerOptions& options, const std::string& name) {
    if (options.only.empty()) return true;
    std::string bare = name.substr(name.find('/') + 1);
    for (const std::string& wanted : options.only) {
        if (wanted == name || wanted == bare) return true;
    }
    return false;
}

void runAll(const RunnerOptions& options, const std::vector<NamedCase>& cases, Report& report) {
    for (const NamedCase& named : cases) {
        if (selected(options, named.name)) {
            report.add(named.name, runIsolated(named.body, options.caseTimeoutSeconds));
        }
    }
}

fs::path casesDirectory(const RunnerOptions& options) {
    fs::path directory = options.casesDir ? fs::path(*options.casesDir) : installedCasesDirectory();
    std::error_code error;
    if (!fs::is_directory(directory, error)) {
        throw UsageError("no case directory at '" + directory.string() +
                         "' (give --cases DIR, or --abi-only)");
    }
    return directory;
}

std::optional<fs::path> overridesDirectory(const RunnerOptions& options) {
    if (!options.overridesDir) return std::nullopt;
    std::error_code error;
    if (!fs::is_directory(*options.overridesDir, error)) {
        throw UsageError("no override directory at '" + *options.overridesDir + "'");
    }
    return fs::path(*options.overridesDir);
}

int run(const RunnerOptions& options) {
    setIsolation(!options.inProcess);
    Report report(std::cout);
    Subject subject;
    try {
        subject = loadSubject(options.plugin, options.pluginDirs);
    } catch (const tapdiffgen::core::PluginLoadError& failure) {
        report.add("load", {Outcome::Fail, failure.what()});
        report.finish();
        return kExitFailed;
    }
    report.add("load",
               {Outcome::Ok, subject.plugin->dialect() + " from " + subject.plugin->path()});
    runAll(options, abiCases(subject), report);
    if (!options.abiOnly) {
        LiveContext context;
        context.subject = &subject;
        context.options = connectionOptionsFromEnvironment(subject.plugin->dialect());
        context.setupCommand = options.setupCommand;
        context.setupOverrides = options.setupOverrides.value_or(subject.plugin->dialect());
        context.expectedOverrides = options.expectedOverrides.value_or(subject.plugin->dialect());
        runAll(options, liveCases(context, casesDirectory(options), overridesDirectory(options)),
               report);
    }
    report.finish();
    return report.anyFailed() ? kExitFailed : 0;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        RunnerOptions options = parseRunnerOptions(argc, argv);
        if (options.help) {
            std::cout << usageText();
            return 0;
        }
        return run(options);
    } catch (const UsageError& failure) {
        std::cerr << "tap-diffgen-conformance: " << failure.what() << "\n\n" << usageText();
        return kExitUsage;
    } catch (const std::invalid_argument& failure) {
        std::cerr << "tap-diffgen-conformance: " << failure.what() << "\n";
        return kExitUsage;
    }
}

// The command line of tap-diffgen-conformance.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace tapdiffgen::conformance {

class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct RunnerOptions {
    std::string plugin;                       // --plugin NAME|PATH
    std::vector<std::string> pluginDirs;      // --plugin-dir DIR, repeatable
    bool abiOnly = false;                     // --abi-only
    std::optional<std::string> casesDir;      // --cases DIR
    std::optional<std::string> overridesDir;  // --overrides DIR
    // --dialect-overrides NAME sets both of these.
    std::optional<std::string> setupOverrides;     // --setup-overrides NAME
    std::optional<std::string> expectedOverrides;  // --expected-overrides NAME
    std::optional<std::string> setupCommand;       // --setup-command CMD
    std::vector<std::string> only;                 // --case NAME, repeatable
    bool inProcess = false;                        // --in-process
    int caseTimeoutSeconds = 300;                  // --case-timeout SECONDS
    bool help = false;
};

/// Throws UsageError naming the offending argument.
RunnerOptions parseRunnerOptions(int argc, char** argv);

std::string usageText();

}  // namespace tapdiffgen::conformance

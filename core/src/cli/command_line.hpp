// The command line, parsed the way Singer and Meltano call a tap.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace tapdiffgen::core {

class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct CommandLine {
    std::vector<std::string> configs;     // --config, repeatable (a path or ENV)
    std::optional<std::string> state;     // --state
    std::optional<std::string> catalog;   // --catalog
    std::vector<std::string> pluginDirs;  // --plugin-dir, repeatable
    bool discover = false;
    bool about = false;
    std::string format = "text";  // --format, with --about
    bool version = false;
    bool help = false;
    bool listPlugins = false;
    bool test = false;            // --test: one record per stream
    bool testSchemaOnly = false;  // --test=schema
};

/// Throws UsageError naming the offending argument.
CommandLine parseCommandLine(int argc, char** argv);

/// The --help text.
std::string helpText();

}  // namespace tapdiffgen::core

// The command line, parsed the way Singer and Meltano call a tap.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "util/tap_error.hpp"

namespace tapdiffgen::core {

class UsageError : public TapError {
public:
    explicit UsageError(const std::string& message) : TapError(ErrorKind::Usage, message) {}
    std::string line() const override {
        return std::string(what()) + " (tap-diffgen --help shows the options)";
    }
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
    bool checkJournal = false;    // --check-journal: the journal's health, as a report
    bool man = false;             // --man (hidden): the manual page as roff, for packaging
};

/// One documented option: "--config PATH|ENV" and what it does.
struct CliOption {
    std::string synopsis;
    std::string description;
};

/// What --help says, as data: the man page is composed from the same parts.
struct HelpContent {
    std::string usage;    ///< "tap-diffgen [OPTIONS]"
    std::string summary;  ///< one sentence
    std::vector<CliOption> options;
    std::string footer;  ///< one sentence after the options
};

const HelpContent& helpContent();

/// Throws UsageError naming the offending argument.
CommandLine parseCommandLine(int argc, char** argv);

/// The --help text.
std::string helpText();

}  // namespace tapdiffgen::core

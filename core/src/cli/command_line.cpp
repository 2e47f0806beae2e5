#include "cli/command_line.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <sstream>

namespace tapdiffgen::core {

CommandLine parseCommandLine(int argc, char** argv) {
    CommandLine line;
    std::map<std::string, std::function<void(const std::string&)>> withValue = {
        {"--config", [&](const std::string& v) { line.configs.push_back(v); }},
        {"--state", [&](const std::string& v) { line.state = v; }},
        {"--catalog", [&](const std::string& v) { line.catalog = v; }},
        {"--properties", [&](const std::string& v) { line.catalog = v; }},
        {"--plugin-dir", [&](const std::string& v) { line.pluginDirs.push_back(v); }},
        {"--format", [&](const std::string& v) { line.format = v; }},
    };
    std::map<std::string, std::function<void()>> flags = {
        {"--discover", [&] { line.discover = true; }},
        {"--about", [&] { line.about = true; }},
        {"--version", [&] { line.version = true; }},
        {"--help", [&] { line.help = true; }},
        {"-h", [&] { line.help = true; }},
        {"--list-plugins", [&] { line.listPlugins = true; }},
        {"--test", [&] { line.test = true; }},
        {"--check-journal", [&] { line.checkJournal = true; }},
        {"--man", [&] { line.man = true; }},
    };
    for (int i = 1; i < argc; ++i) {
        std::string argument = argv[i];
        std::string inlineValue;
        bool hasInlineValue = false;
        if (size_t equals = argument.find('=');
            argument.rfind("--", 0) == 0 && equals != std::string::npos) {
            inlineValue = argument.substr(equals + 1);
            argument = argument.substr(0, equals);
            hasInlineValue = true;
        }
        if (argument == "--test" && hasInlineValue) {
            if (inlineValue == "schema") {
                line.testSchemaOnly = true;
            } else if (inlineValue == "all" || inlineValue == "record") {
                line.test = true;
            } else {
                throw UsageError("--test takes 'schema' or 'record', not '" + inlineValue + "'");
            }
            continue;
        }
        if (auto flag = flags.find(argument); flag != flags.end()) {
            if (hasInlineValue) throw UsageError(argument + " takes no value");
            flag->second();
            continue;
        }
        auto option = withValue.find(argument);
        if (option == withValue.end()) throw UsageError("unknown argument '" + argument + "'");
        if (!hasInlineValue) {
            if (i + 1 >= argc) throw UsageError(argument + " needs a value");
            inlineValue = argv[++i];
        }
        option->second(inlineValue);
    }
    if (line.format != "text" && line.format != "json" && line.format != "markdown") {
        throw UsageError("unknown --format '" + line.format +
                         "' (expected text, json or markdown)");
    }
    return line;
}

const HelpContent& helpContent() {
    static const HelpContent content{
        "tap-diffgen [OPTIONS]",
        "Replays a diffgen audit log as a Singer change stream, deletes included.",
        {
            {"--config PATH|ENV",
             "Settings file (repeatable; later files win). ENV also reads "
             "TAP_DIFFGEN_<SETTING> variables and a .env file."},
            {"--state PATH", "State from an earlier run (its bookmarks are resumed)."},
            {"--catalog PATH", "Catalog selecting streams and columns."},
            {"--discover", "Print the catalog of the configured tables and exit."},
            {"--about", "Print the tap's description, capabilities and settings."},
            {"--format FORMAT", "With --about: text, json or markdown."},
            {"--test[=schema]", "Emit one record per stream (or only the schemas) and exit."},
            {"--check-journal",
             "Report whether the journal can lose changes: triggers, journal names, keys, "
             "the prune record, the id sequence, partitions, foreign keys, the horizon, and "
             "with --state how far each stream is behind. Exits 1 when it finds a problem."},
            {"--list-plugins", "List the dialect plugins found and where."},
            {"--plugin-dir DIR", "Look for dialect plugins in DIR first (repeatable)."},
            {"--version", "Print the version and exit."},
            {"--help", "Print this help and exit."},
        },
        "Singer messages go to stdout; logs go to stderr.",
    };
    return content;
}

std::string helpText() {
    // The width the help has always been wrapped at, so it reads as before.
    constexpr std::size_t kWidth = 88;
    constexpr std::size_t kDescriptionColumn = 24;
    const HelpContent& help = helpContent();
    std::string out = "Usage: " + help.usage + "\n\n" + help.summary + "\n\nOptions:\n";
    for (const auto& option : help.options) {
        std::string line = "  " + option.synopsis;
        line.resize(std::max(line.size() + 1, kDescriptionColumn), ' ');
        std::istringstream words(option.description);
        std::string word;
        bool lineHasWord = false;
        while (words >> word) {
            if (lineHasWord && line.size() + 1 + word.size() > kWidth) {
                out += line + "\n";
                line.assign(kDescriptionColumn, ' ');
                lineHasWord = false;
            }
            line += (lineHasWord ? " " : "") + word;
            lineHasWord = true;
        }
        out += line + "\n";
    }
    return out + "\n" + help.footer + "\n";
}

}  // namespace tapdiffgen::core

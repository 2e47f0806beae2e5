#include "runner_options.hpp"

#include <charconv>

namespace tapdiffgen::conformance {
namespace {

int positiveSeconds(const std::string& argument, const std::string& text) {
    int seconds = 0;
    auto parsed = std::from_chars(text.data(), text.data() + text.size(), seconds);
    if (parsed.ec != std::errc() || parsed.ptr != text.data() + text.size() || seconds <= 0) {
        throw UsageError(argument + " needs a whole number of seconds above 0, not '" + text + "'");
    }
    return seconds;
}

}  // namespace

RunnerOptions parseRunnerOptions(int argc, char** argv) {
    RunnerOptions options;
    for (int i = 1; i < argc; ++i) {
        const std::string argument = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) throw UsageError(argument + " needs a value");
            return argv[++i];
        };
        if (argument == "--plugin") {
            options.plugin = value();
        } else if (argument == "--plugin-dir") {
            options.pluginDirs.push_back(value());
        } else if (argument == "--abi-only") {
            options.abiOnly = true;
        } else if (argument == "--cases") {
            options.casesDir = value();
        } else if (argument == "--overrides") {
            options.overridesDir = value();
        } else if (argument == "--dialect-overrides") {
            std::string name = value();
            options.setupOverrides = name;
            options.expectedOverrides = name;
        } else if (argument == "--setup-overrides") {
            options.setupOverrides = value();
        } else if (argument == "--expected-overrides") {
            options.expectedOverrides = value();
        } else if (argument == "--setup-command") {
            options.setupCommand = value();
        } else if (argument == "--case") {
            options.only.push_back(value());
        } else if (argument == "--case-timeout") {
            options.caseTimeoutSeconds = positiveSeconds(argument, value());
        } else if (argument == "--in-process") {
            options.inProcess = true;
        } else if (argument == "--help" || argument == "-h") {
            options.help = true;
        } else {
            throw UsageError("unknown argument '" + argument + "'");
        }
    }
    if (options.plugin.empty() && !options.help) throw UsageError("--plugin is required");
    return options;
}

std::string usageText() {
    return R"(usage: tap-diffgen-conformance --plugin NAME|PATH [options]

Checks a tap-diffgen dialect plugin against the dialect ABI: first the ABI-level cases, which
need no database, then the live cases in the case directory against a real server.

  --plugin NAME|PATH        the plugin: a dialect name (searched like tap-diffgen does) or a
                            path to the .so
  --plugin-dir DIR          look for plugins in DIR first (repeatable)
  --abi-only                run only the ABI-level cases
  --cases DIR               the live case directory (default: the installed cases)
  --overrides DIR           a directory of the plugin's own files, laid out like the cases
                            (DIR/<case>/expected.NAME.json, setup.NAME.sql, ...), which win
                            over the cases' files of the same name; a DIR/<case>/ with its own
                            expected.json is a case of its own. Keep it with the plugin's
                            sources: the installed cases belong to their package
  --dialect-overrides NAME  use the NAME overrides of both kinds below (default for each:
                            the plugin's dialect name):
  --setup-overrides NAME    the database's SQL spelling: setup.NAME.sql, teardown.NAME.sql,
                            writer.NAME.sql
  --expected-overrides NAME
                            the plugin's answers: expected.NAME.json (e.g. a driver over ODBC
                            reporting "bool" where the postgres plugin reports "boolean")
  --setup-command CMD       shell command that runs SQL read from stdin as an administrator,
                            e.g. "psql -X -q -v ON_ERROR_STOP=1 -d tapdb"; live cases with setup
                            SQL are skipped without it. Some cases also use it while the plugin
                            reads: to alter a table, to end the plugin's session, to set the
                            server's time zone for new sessions (reset by their teardown). Its
                            output is shown only when it fails
  --case NAME               run only this case (repeatable)
  --case-timeout SECONDS    fail a case that has not finished after SECONDS (default 300),
                            e.g. to bound a run against a plugin that may hang
  --in-process              run the cases in this process instead of one child process each,
                            to debug a plugin under gdb (a crash then ends the run)

Environment:
  TDG_CONFORMANCE_OPTIONS   JSON object of the plugin's connection settings for live cases,
                            e.g. {"host":"127.0.0.1","port":5432,"user":"tap","password":"...",
                            "database":"tapdb"}; live cases are skipped without it

Output: one line per case, "ok|FAIL|skip <case>: detail", then "conformance: N passed,
N failed". Exit status 1 when a case failed, 2 on a usage error.
)";
}

}  // namespace tapdiffgen::conformance

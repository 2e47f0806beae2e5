// A live case on disk: <cases>/<name>/
//   expected.json            what the case checks ("check" says which kind; see live_cases.hpp)
//   expected.<dialect>.json  optional; its top-level keys replace those of expected.json
//                            ({"skip": "why"} skips the case for that dialect)
//   setup.sql                optional; run through --setup-command before the case
//   setup.<dialect>.sql      optional; replaces setup.sql for that dialect
//   teardown.sql             optional, with the same override rule; run after the case
//   writer.sql               optional, with the same override rule; a writer a check runs
//                            beside the plugin (check "diffgen": an open transaction)
// The two <dialect>s are chosen apart (Overrides): the SQL is the database's spelling, the
// expectations the plugin's, and two plugins for one database may answer differently.
#pragma once

#include <Poco/JSON/Object.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace tapdiffgen::conformance {

struct CaseFiles {
    std::string name;
    std::filesystem::path directory;
    Poco::JSON::Object::Ptr expected;
    std::optional<std::string> setupSql;
    std::optional<std::string> teardownSql;
    std::optional<std::string> writerSql;
};

/// <dir of the executable>/../<datadir>/tap-diffgen/conformance/cases: where the cases are
/// installed next to the runner.
std::filesystem::path installedCasesDirectory();

/// Case directories (those holding an expected.json), sorted by name.
std::vector<std::filesystem::path> caseDirectories(const std::filesystem::path& casesDir);

struct Overrides {
    std::string setup;     // setup.<setup>.sql, teardown.<setup>.sql
    std::string expected;  // expected.<expected>.json
};

/// Reads one case with `overrides`. Throws std::runtime_error on a bad file.
CaseFiles loadCaseFiles(const std::filesystem::path& directory, const Overrides& overrides);

}  // namespace tapdiffgen::conformance

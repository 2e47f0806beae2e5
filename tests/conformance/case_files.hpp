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
//
// An override directory (--overrides DIR) is laid out the same way, DIR/<name>/, and kept
// apart from the shipped cases, which are package-owned: each of its files wins over the
// shipped file of the same name, and a DIR/<name>/ with an expected.json of its own is a case
// of its own.
#pragma once

#include <Poco/JSON/Object.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "support/exact_json.hpp"

namespace tapdiffgen::conformance {

struct CaseFiles {
    std::string name;
    Poco::JSON::Object::Ptr expected;
    /// The same document read exactly: numbers keep their text (1.50, -9223372036854775808),
    /// for the values a check compares.
    testing::ExactJson exact;
    std::optional<std::string> setupSql;
    std::optional<std::string> teardownSql;
    std::optional<std::string> writerSql;
};

/// <dir of the executable>/../<datadir>/tap-diffgen/conformance/cases: where the cases are
/// installed next to the runner.
std::filesystem::path installedCasesDirectory();

/// One case: its name and the directories its files are read from, the first one's winning.
struct CaseLocation {
    std::string name;
    std::vector<std::filesystem::path> directories;
};

/// The cases of `casesDir` (directories holding an expected.json) with their override
/// directories in `overridesDir` when given, and the override directory's own cases, sorted by
/// name.
std::vector<CaseLocation> caseLocations(const std::filesystem::path& casesDir,
                                        const std::optional<std::filesystem::path>& overridesDir);

struct Overrides {
    std::string setup;     // setup.<setup>.sql, teardown.<setup>.sql
    std::string expected;  // expected.<expected>.json
};

/// Reads one case with `overrides`. Throws std::runtime_error on a bad file.
CaseFiles loadCaseFiles(const CaseLocation& location, const Overrides& overrides);

}  // namespace tapdiffgen::conformance

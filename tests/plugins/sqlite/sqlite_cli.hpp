// The sqlite3 shell, as a user would run it: a script fed on standard input.
#pragma once

#include <string>

namespace tapdiffgen::testing {

/// Feeds `script` to `sqlite3 database` from `workingDir` (where a script's .read resolves);
/// returns the shell's exit status.
int applySql(const std::string& database, const std::string& script, const std::string& workingDir);

}  // namespace tapdiffgen::testing

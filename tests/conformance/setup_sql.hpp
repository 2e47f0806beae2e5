// Setup and teardown SQL go through an administrator's command-line client, never through the
// plugin: plugin sessions are read-only by contract.
#pragma once

#include <string>

namespace tapdiffgen::conformance {

/// Runs `command` with /bin/sh, `sql` on its stdin and its stdout sent to stderr (the report
/// owns stdout). Throws CaseFailure naming `what` when the command fails.
void runSql(const std::string& command, const std::string& sql, const std::string& what);

}  // namespace tapdiffgen::conformance

// Runs a case in a child process, so a plugin that crashes or hangs fails that case with the
// signal or the timeout instead of taking the runner down with it.
#pragma once

#include <functional>
#include <string>

#include "case_result.hpp"

namespace tapdiffgen::conformance {

/// Body returns the detail of a pass or throws CaseFailure / CaseSkipped.
using CaseBody = std::function<std::string()>;

CaseResult runIsolated(const CaseBody& body, int timeoutSeconds);

/// Off: cases run in the runner's own process (--in-process), for a debugger; a crash then
/// ends the run.
void setIsolation(bool enabled);

}  // namespace tapdiffgen::conformance

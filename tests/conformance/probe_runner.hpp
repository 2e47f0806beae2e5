// Runs a case's individual calls ("probes") each in its own process, so one crash names its
// call and the remaining calls still get checked.
#pragma once

#include <string>
#include <vector>

#include "isolated_run.hpp"

namespace tapdiffgen::conformance {

struct IsolatedProbe {
    std::string call;
    CaseBody body;
};

/// Throws CaseFailure with the first failure's detail and the names of the other failed calls.
void runProbes(const std::vector<IsolatedProbe>& probes, int timeoutSeconds);

}  // namespace tapdiffgen::conformance

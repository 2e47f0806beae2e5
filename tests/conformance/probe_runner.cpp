#include "probe_runner.hpp"

namespace tapdiffgen::conformance {

void runProbes(const std::vector<IsolatedProbe>& probes, int timeoutSeconds) {
    std::string first;
    std::string others;
    int failed = 0;
    for (const IsolatedProbe& probe : probes) {
        CaseResult result = runIsolated(probe.body, timeoutSeconds);
        if (result.outcome != Outcome::Fail) continue;
        if (++failed == 1) {
            first = probe.call + ": " + result.detail;
        } else {
            others += (others.empty() ? "" : ", ") + probe.call;
        }
    }
    if (failed == 0) return;
    throw CaseFailure(first + (others.empty() ? "" : "; also failed: " + others));
}

}  // namespace tapdiffgen::conformance

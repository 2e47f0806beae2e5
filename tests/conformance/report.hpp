// The runner's output: one line per case, `ok|FAIL|skip <case>: detail`, then the totals.
#pragma once

#include <ostream>
#include <string>

#include "case_result.hpp"

namespace tapdiffgen::conformance {

class Report {
public:
    explicit Report(std::ostream& out) : out_(out) {}

    void add(const std::string& caseName, const CaseResult& result);
    /// "conformance: N passed, N failed".
    void finish();
    bool anyFailed() const { return failed_ > 0; }

private:
    std::ostream& out_;
    int passed_ = 0;
    int failed_ = 0;
};

}  // namespace tapdiffgen::conformance

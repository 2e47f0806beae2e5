// How one conformance case ends. A case body returns the detail of a pass, or throws
// CaseFailure / CaseSkipped; anything else it throws is reported as a failure too.
#pragma once

#include <stdexcept>
#include <string>

namespace tapdiffgen::conformance {

enum class Outcome { Ok, Fail, Skip };

struct CaseResult {
    Outcome outcome = Outcome::Fail;
    std::string detail;
};

/// The plugin did something the ABI does not allow; what() says what and where.
class CaseFailure : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The case cannot run here (no database configured, no setup command, ...).
class CaseSkipped : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Throws CaseFailure(message) unless `condition` holds.
inline void require(bool condition, const std::string& message) {
    if (!condition) throw CaseFailure(message);
}

}  // namespace tapdiffgen::conformance

#include "util/tap_error.hpp"

namespace tapdiffgen::core {

int exitCodeOf(ErrorKind kind) { return kind == ErrorKind::Usage ? 2 : 1; }

FailureReport reportOf(const std::exception& failure) {
    if (const auto* error = dynamic_cast<const TapError*>(&failure)) {
        return {error->line(), exitCodeOf(error->kind())};
    }
    return {std::string("unexpected error: ") + failure.what(), exitCodeOf(ErrorKind::Internal)};
}

}  // namespace tapdiffgen::core

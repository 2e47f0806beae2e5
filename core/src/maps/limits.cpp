#include "maps/limits.hpp"

#include <string>

#include "maps/value.hpp"

namespace tapdiffgen::core::maps {

void checkResultLength(double length) {
    if (length <= static_cast<double>(kMaxStringLength)) return;
    throw EvalError(
        "IterableTooLong: the result would be longer than simpleeval's "
        "MAX_STRING_LENGTH of " +
        std::to_string(kMaxStringLength));
}

void checkGrownLength(double length, double longestGiven) {
    if (length > longestGiven) checkResultLength(length);
}

}  // namespace tapdiffgen::core::maps

// The bounds stream maps run within.
#pragma once

#include <cstddef>

namespace tapdiffgen::core::maps {

/// How deeply an expression may nest: brackets, unary operators, conditional and power operands,
/// and calls, subscripts and attributes chained on one value. Python itself refuses more than
/// 200 nested parentheses; past some thousands of levels the tap's parser and evaluator would
/// exhaust their stack. Chains of one operator (`a or b or ...`, `a + b - ...`, `x if c else y
/// if d else ...`) are flat and count once, so they may be as long as they like.
inline constexpr size_t kMaxNesting = 200;

/// How deeply a JSON document of a record may nest for expressions to read it: Python's json
/// module stops near its recursion limit of 1000 too. A deeper document is read as its text.
inline constexpr size_t kMaxJsonDepth = 1000;

}  // namespace tapdiffgen::core::maps

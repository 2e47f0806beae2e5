// The bounds stream maps run within. The SDK evaluates expressions with simpleeval, whose caps
// keep an expression from building values that would exhaust memory or time: the same caps
// apply here, so that what the SDK refuses is refused, as one line naming the expression, and
// not by running out of memory.
#pragma once

#include <cstddef>

namespace tapdiffgen::core::maps {

/// simpleeval's MAX_STRING_LENGTH: the longest string, list or tuple `+` and `*` may make (and,
/// here, padding, replace and join, when they make a string longer than the ones they were
/// given). A record's own values may be longer.
inline constexpr size_t kMaxStringLength = 100000;

/// simpleeval's MAX_POWER: `a ** b` is refused when |a| or |b| is larger.
inline constexpr double kMaxPower = 4000000;

/// simpleeval's IterableTooLong: throws EvalError when a result of `length` would be longer
/// than kMaxStringLength.
void checkResultLength(double length);

/// The same for a method that makes a string from strings (padding, replace, join): only a
/// result longer than the longest it was given counts as built.
void checkGrownLength(double length, double longestGiven);

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

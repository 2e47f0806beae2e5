// The bounds stream maps run within.
#pragma once

#include <cstddef>

namespace tapdiffgen::core::maps {

/// How deeply a JSON document of a record may nest for expressions to read it: Python's json
/// module stops near its recursion limit of 1000 too. A deeper document is read as its text.
inline constexpr size_t kMaxJsonDepth = 1000;

}  // namespace tapdiffgen::core::maps

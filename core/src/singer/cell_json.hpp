// A driver's cell written as the JSON value of a RECORD member: what the renderer writes for a
// column and what stream maps write for a property passed through, so both agree to the byte.
#pragma once

#include <string>

#include "tap-diffgen/dialect_abi.h"

namespace tapdiffgen::core {

/// Writes one cell as a JSON value (see TdgValueKind for the text forms); a NULL cell is null.
void appendCellJson(std::string& out, const TdgCell& cell);

}  // namespace tapdiffgen::core

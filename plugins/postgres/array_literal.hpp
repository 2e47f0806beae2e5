// PostgreSQL array literals ("{"a","b\"c"}") for binding a list as ONE text parameter, so a
// 100,000-key batch is one statement and no value is ever spliced into SQL.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tapdiffgen::postgres {

/// Every element double-quoted, with '"' and '\' backslash-escaped. Elements containing a NUL
/// byte are left out: no PostgreSQL text value can contain one, so none could match.
std::string arrayLiteral(const std::vector<std::string_view>& elements);

}  // namespace tapdiffgen::postgres

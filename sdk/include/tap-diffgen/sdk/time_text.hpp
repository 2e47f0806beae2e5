// The ABI's TIME text form, shared by every dialect driver (values.hpp has the timestamp one).
#pragma once

#include <string>
#include <string_view>

namespace tapdiffgen::sdk {

/// Appends a server time-of-day text ("13:14:15.5+02", "838:59:59", "-01:00:00.25") in the
/// ABI's TIME form: the fraction padded or cut to 6 digits, an offset as "+HH:MM" (or
/// "+HH:MM:SS" when the server gave seconds), "Z" as "+00:00". Hours may have more than two
/// digits and a sign (MySQL TIME). Returns false when `text` is not such a time, leaving `out`
/// unchanged.
bool appendIsoTime(std::string_view text, std::string& out);

}  // namespace tapdiffgen::sdk

// bytea's hex output ("\x0a1b..."), which the session asks for, as raw bytes: a bytea column's
// value, and pg_trigger.tgargs.
#pragma once

#include <string>
#include <string_view>

namespace tapdiffgen::postgres {

/// Appends the bytes of `text` to `out`; false (with `out` partly written) when `text` is not
/// bytea's hex output.
bool appendUnhexed(std::string_view text, std::string& out);

/// Raw bytes as bytea's hex input ("\x0a1b..."), for a bytea parameter sent as text.
std::string byteaHexInput(std::string_view bytes);

}  // namespace tapdiffgen::postgres

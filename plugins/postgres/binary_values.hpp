// The values of a diffgen page from PostgreSQL's binary result format. A page read returns
// every event's id and ts_created; in binary format the server sends them as stored (an int8,
// microseconds since 2000) instead of running their output functions, about a sixth of the
// server's time for a page, and the plugin writes the timestamp's text itself, in the same
// form the text path gives. Text columns are their text in either format.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tapdiffgen::postgres {

/// A binary int8. Throws DriverError when `wire` is not 8 bytes.
int64_t binaryInt8(std::string_view wire);

/// Appends a binary timestamptz, an instant in UTC, in the ABI's form
/// ("YYYY-MM-DDTHH:MM:SS.ffffff+00:00"). Returns false, leaving `out` unchanged, for ±infinity
/// and instants before year 1 or after year 9999, which sdk::appendIsoTimestamp refuses as text
/// too. Throws DriverError when `wire` is not 8 bytes.
bool appendBinaryTimestampTz(std::string_view wire, std::string& out);

}  // namespace tapdiffgen::postgres

// Helpers for a driver's key codec: reading the canonical key texts of dialect_abi.h ("Key
// texts") into the values its database binds, and stating which columns can be keys.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "tap-diffgen/dialect_abi.h"

namespace tapdiffgen::sdk {

/// Appends the bytes that `hex` spells (digits in either case, no prefix) to `out`; false,
/// with `out` partly written, when it is not hex.
bool appendBytesOfHex(std::string_view hex, std::string& out);

/// The bytes of a BYTES key text (lowercase hex, no prefix); false when it is not hex.
bool bytesOfKeyText(std::string_view hex, std::string& out);

/// A TIMESTAMPTZ key text without its "+00:00": the UTC date and time, for a session in UTC.
std::string_view utcClockOfKeyText(std::string_view text);

/// The fractional-second digits a type spelled "datetime(3)", "time(6)" or "timestamp(0)
/// with time zone" declares (the first parenthesised number), or `whenAbsent`.
int fractionDigitsOfType(std::string_view sqlType, int whenAbsent);

/// TDG_KEY_SUPPORT_NO for the kinds no key can have (JSON); TDG_KEY_SUPPORT_YES otherwise. A
/// driver refines it per type (floating point, types without equality).
uint8_t keySupportOfKind(TdgValueKind kind);

}  // namespace tapdiffgen::sdk

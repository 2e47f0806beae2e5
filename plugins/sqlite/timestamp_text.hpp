// SQLite's date and time text as the ABI's TIMESTAMP form. SQLite has no timestamp type: its
// date functions read "YYYY-MM-DD", "YYYY-MM-DD HH:MM", "YYYY-MM-DD HH:MM:SS.SSS", with a 'T'
// or a space, optionally followed by "Z" or "+HH:MM". A value with an offset is moved to UTC,
// so the instant survives; a value without one is read as UTC.
#pragma once

#include <string>
#include <string_view>

namespace tapdiffgen::sqlite {

/// Appends "YYYY-MM-DDTHH:MM:SS.ffffff" (UTC). Returns false, leaving `out` unchanged, when
/// `text` is not such a date and time.
bool appendUtcTimestamp(std::string_view text, std::string& out);

}  // namespace tapdiffgen::sqlite

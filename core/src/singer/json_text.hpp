// Hand-rolled JSON rendering for the hot path: records are written straight into one output
// buffer, with no DOM and no allocation per value.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tapdiffgen::core {

/// Appends `text` as a JSON string (quotes included): escapes quotes, backslashes, control
/// characters and the line breaks U+0085, U+2028 and U+2029 (valid JSON, but a reader that
/// splits lines on them would cut the message), and replaces every invalid UTF-8 sequence with
/// U+FFFD so the line stays valid.
void appendJsonString(std::string& out, std::string_view text);

/// Appends a JSON document as a value of the message being written. A valid document holds a
/// line break only as white space between tokens (a string cannot contain one raw), so each
/// becomes a space, and U+0085, U+2028 and U+2029 only inside its strings, where they are
/// escaped: the message stays on its one line whoever splits it.
void appendJsonDocument(std::string& out, std::string_view document);

/// Appends bytes as a JSON string of lowercase hex digits.
void appendHexString(std::string& out, std::string_view bytes);

void appendInt64(std::string& out, int64_t value);

/// The current UTC time as "YYYY-MM-DDTHH:MM:SS.ffffff+00:00".
std::string utcNowIso();

/// Appends a Unicode code point (a JSON \u escape, decoded) as UTF-8.
void appendUtf8(std::string& out, uint32_t codePoint);

}  // namespace tapdiffgen::core

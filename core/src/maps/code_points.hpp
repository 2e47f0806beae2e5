// Python counts a string's characters, not its bytes: these give the code points of UTF-8 text,
// with a fast answer for the common all-ASCII case.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tapdiffgen::core::maps {

bool isAscii(std::string_view text);

/// Python's len() of the text.
size_t characterCount(std::string_view text);

/// The text's characters, each as its UTF-8 bytes.
std::vector<std::string> codePoints(std::string_view text);

}  // namespace tapdiffgen::core::maps

#include "maps/code_points.hpp"

#include <algorithm>

namespace tapdiffgen::core::maps {
namespace {

// Bytes of the UTF-8 sequence a lead byte starts (a stray continuation byte counts alone).
size_t sequenceLength(unsigned char lead) {
    if (lead >= 0xF0) return 4;
    if (lead >= 0xE0) return 3;
    if (lead >= 0xC0) return 2;
    return 1;
}

}  // namespace

bool isAscii(std::string_view text) {
    return std::all_of(text.begin(), text.end(),
                       [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

size_t characterCount(std::string_view text) {
    if (isAscii(text)) return text.size();
    size_t count = 0;
    for (size_t i = 0; i < text.size(); i += sequenceLength(static_cast<unsigned char>(text[i]))) {
        ++count;
    }
    return count;
}

std::vector<std::string> codePoints(std::string_view text) {
    std::vector<std::string> out;
    for (size_t i = 0; i < text.size();) {
        const size_t length = sequenceLength(static_cast<unsigned char>(text[i]));
        out.emplace_back(text.substr(i, length));
        i += length;
    }
    return out;
}

}  // namespace tapdiffgen::core::maps

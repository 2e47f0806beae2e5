#include "bytea_text.hpp"

#include "tap-diffgen/sdk/key_text.hpp"

namespace tapdiffgen::postgres {

bool appendUnhexed(std::string_view text, std::string& out) {
    if (text.size() < 2 || text[0] != '\\' || text[1] != 'x') return false;
    return sdk::appendBytesOfHex(text.substr(2), out);
}

std::string byteaHexInput(std::string_view bytes) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string text = "\\x";
    text.reserve(2 + 2 * bytes.size());
    for (unsigned char c : bytes) {
        text.push_back(kDigits[c >> 4]);
        text.push_back(kDigits[c & 0xF]);
    }
    return text;
}

}  // namespace tapdiffgen::postgres

#include "tap-diffgen/sdk/key_text.hpp"

namespace tapdiffgen::sdk {
namespace {

int hexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

}  // namespace

bool appendBytesOfHex(std::string_view hex, std::string& out) {
    if (hex.size() % 2 != 0) return false;
    out.reserve(out.size() + hex.size() / 2);
    for (size_t i = 0; i < hex.size(); i += 2) {
        const int high = hexValue(hex[i]);
        const int low = hexValue(hex[i + 1]);
        if (high < 0 || low < 0) return false;
        out.push_back(static_cast<char>((high << 4) | low));
    }
    return true;
}

bool bytesOfKeyText(std::string_view hex, std::string& out) {
    out.clear();
    return appendBytesOfHex(hex, out);
}

std::string_view utcClockOfKeyText(std::string_view text) {
    constexpr std::string_view kUtc = "+00:00";
    if (text.size() > kUtc.size() && text.substr(text.size() - kUtc.size()) == kUtc) {
        text.remove_suffix(kUtc.size());
    }
    return text;
}

int fractionDigitsOfType(std::string_view sqlType, int whenAbsent) {
    const size_t open = sqlType.find('(');
    if (open == std::string_view::npos) return whenAbsent;
    int digits = 0;
    size_t at = open + 1;
    for (; at < sqlType.size() && sqlType[at] >= '0' && sqlType[at] <= '9'; ++at) {
        digits = digits * 10 + (sqlType[at] - '0');
    }
    return at > open + 1 && at < sqlType.size() && sqlType[at] == ')' ? digits : whenAbsent;
}

uint8_t keySupportOfKind(TdgValueKind kind) {
    return kind == TDG_KIND_JSON || kind == TDG_KIND_NULL ? TDG_KEY_SUPPORT_NO
                                                          : TDG_KEY_SUPPORT_YES;
}

}  // namespace tapdiffgen::sdk

#include "tap-diffgen/sdk/time_text.hpp"

#include <algorithm>

namespace tapdiffgen::sdk {
namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }

size_t countDigits(std::string_view text, size_t from) {
    size_t end = from;
    while (end < text.size() && isDigit(text[end])) ++end;
    return end - from;
}

// "HH:MM" or "HH:MM:SS" (two digits each) starting at `from`; returns its length or 0.
size_t clockLength(std::string_view text, size_t from, bool secondsRequired) {
    size_t at = from;
    if (countDigits(text, at) != 2) return 0;
    at += 2;
    for (int part = 0; part < 2; ++part) {
        if (at >= text.size() || text[at] != ':')
            return part == 0 || secondsRequired ? 0 : at - from;
        if (countDigits(text, at + 1) != 2) return 0;
        at += 3;
    }
    return at - from;
}

// "+HH", "+HH:MM", "+HH:MM:SS" or "Z" → "+HH:MM[:SS]"; false when malformed.
bool appendOffset(std::string_view offset, std::string& out) {
    if (offset == "Z") {
        out.append("+00:00");
        return true;
    }
    if (offset.size() < 3 || (offset[0] != '+' && offset[0] != '-')) return false;
    if (offset.size() == 3) {
        if (countDigits(offset, 1) != 2) return false;
        out.append(offset);
        out.append(":00");
        return true;
    }
    if (clockLength(offset, 1, false) != offset.size() - 1) return false;
    out.append(offset);
    return true;
}

}  // namespace

bool appendIsoTime(std::string_view text, std::string& out) {
    size_t at = text.size() > 0 && text[0] == '-' ? 1 : 0;
    size_t hours = countDigits(text, at);
    if (hours < 2) return false;
    size_t clockStart = at + hours - 2;
    size_t clock = clockLength(text, clockStart, true);
    if (clock != 8) return false;
    at = clockStart + clock;

    std::string_view fraction;
    if (at < text.size() && text[at] == '.') {
        size_t digits = countDigits(text, at + 1);
        if (digits == 0) return false;
        fraction = text.substr(at + 1, digits);
        at += 1 + digits;
    }
    std::string result(text.substr(0, clockStart + clock));
    result.push_back('.');
    result.append(fraction.substr(0, 6));
    result.append(6 - std::min<size_t>(fraction.size(), 6), '0');
    if (at < text.size() && !appendOffset(text.substr(at), result)) return false;
    out.append(result);
    return true;
}

}  // namespace tapdiffgen::sdk

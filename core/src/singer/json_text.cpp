#include "singer/json_text.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <ctime>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace tapdiffgen::core {
namespace {

constexpr char kHex[] = "0123456789abcdef";

// The bytes a JSON string holds as they are: printable ASCII but the quote and the backslash.
// One look-up a byte instead of four comparisons: a quarter fewer instructions in the loop that
// every string of every record goes through.
struct PlainBytes {
    bool plain[256] = {};
    constexpr PlainBytes() {
        for (int c = 0x20; c < 0x80; ++c) plain[c] = c != '"' && c != '\\';
    }
};
constexpr PlainBytes kPlainBytes;

// Length of the valid UTF-8 sequence starting at text[i], or 0 when it is invalid
// (overlong forms, surrogates and code points above U+10FFFF are invalid).
size_t validUtf8Length(std::string_view text, size_t i) {
    auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
    unsigned char lead = byte(i);
    size_t remaining = text.size() - i;
    auto continuation = [&](size_t k) { return k < text.size() && (byte(k) & 0xC0) == 0x80; };
    if (lead >= 0xC2 && lead <= 0xDF) return remaining >= 2 && continuation(i + 1) ? 2 : 0;
    if (lead >= 0xE0 && lead <= 0xEF) {
        if (remaining < 3 || !continuation(i + 1) || !continuation(i + 2)) return 0;
        unsigned char second = byte(i + 1);
        if (lead == 0xE0 && second < 0xA0) return 0;
        if (lead == 0xED && second >= 0xA0) return 0;
        return 3;
    }
    if (lead >= 0xF0 && lead <= 0xF4) {
        if (remaining < 4 || !continuation(i + 1) || !continuation(i + 2) || !continuation(i + 3)) {
            return 0;
        }
        unsigned char second = byte(i + 1);
        if (lead == 0xF0 && second < 0x90) return 0;
        if (lead == 0xF4 && second >= 0x90) return 0;
        return 4;
    }
    return 0;
}

void appendEscape(std::string& out, unsigned char c) {
    switch (c) {
        case '"':
            out += "\\\"";
            return;
        case '\\':
            out += "\\\\";
            return;
        case '\n':
            out += "\\n";
            return;
        case '\r':
            out += "\\r";
            return;
        case '\t':
            out += "\\t";
            return;
        case '\b':
            out += "\\b";
            return;
        case '\f':
            out += "\\f";
            return;
        default:
            out += "\\u00";
            out.push_back(kHex[c >> 4]);
            out.push_back(kHex[c & 0xF]);
    }
}

// The index of the first byte at or after `i` that is not plain (text.size() when none is).
// Sixteen bytes a comparison where SSE2 is there (every x86-64): a record's strings are mostly
// plain ASCII, and this scan was the largest single cost of writing them.
size_t skipPlain(std::string_view text, size_t i) {
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i space = _mm_set1_epi8(0x20);
    for (; i + 16 <= text.size(); i += 16) {
        const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + i));
        // Signed: below 0x20 are the control bytes and, as negative numbers, 0x80 and up.
        const __m128i special = _mm_or_si128(
            _mm_cmplt_epi8(bytes, space),
            _mm_or_si128(_mm_cmpeq_epi8(bytes, quote), _mm_cmpeq_epi8(bytes, backslash)));
        const int mask = _mm_movemask_epi8(special);
        if (mask != 0) return i + static_cast<size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
    }
#endif
    while (i < text.size() && kPlainBytes.plain[static_cast<unsigned char>(text[i])]) ++i;
    return i;
}

// U+0085, U+2028 and U+2029 are valid in a JSON string, but readers that split lines on them
// (Python's str.splitlines) would cut a message in two. Their escape when the valid sequence at
// text[i] (lead byte `lead`, `length` bytes) is one of them, else null: a look at the lead byte
// for any other character.
const char* lineBreakEscape(unsigned char lead, std::string_view text, size_t i, size_t length) {
    if (lead == 0xC2) {
        return length == 2 && static_cast<unsigned char>(text[i + 1]) == 0x85 ? "\\u0085" : nullptr;
    }
    if (lead != 0xE2 || length != 3 || static_cast<unsigned char>(text[i + 1]) != 0x80) {
        return nullptr;
    }
    const auto last = static_cast<unsigned char>(text[i + 2]);
    return last == 0xA8 ? "\\u2028" : last == 0xA9 ? "\\u2029" : nullptr;
}

}  // namespace

void appendJsonString(std::string& out, std::string_view text) {
    out.push_back('"');
    size_t runStart = 0;
    size_t i = 0;
    while ((i = skipPlain(text, i)) < text.size()) {
        const auto c = static_cast<unsigned char>(text[i]);
        const char* replacement = nullptr;
        size_t length = 1;
        if (c >= 0x80) {
            length = validUtf8Length(text, i);
            if (length == 0) {
                replacement = "\xEF\xBF\xBD";
                length = 1;
            } else {
                if (c == 0xC2 || c == 0xE2) replacement = lineBreakEscape(c, text, i, length);
                if (replacement == nullptr) {
                    i += length;
                    continue;
                }
            }
        }
        out.append(text.data() + runStart, i - runStart);
        if (replacement != nullptr) {
            out += replacement;
        } else {
            appendEscape(out, c);
        }
        i += length;
        runStart = i;
    }
    out.append(text.data() + runStart, text.size() - runStart);
    out.push_back('"');
}

// Outside its strings a valid document holds U+0085, U+2028 and U+2029 nowhere, so their escape
// is right wherever they stand.
void appendJsonDocument(std::string& out, std::string_view document) {
    size_t runStart = 0;
    for (size_t i = 0; i < document.size(); ++i) {
        const auto c = static_cast<unsigned char>(document[i]);
        const char* replacement = nullptr;
        size_t length = 1;
        if (c == '\n' || c == '\r') {
            replacement = " ";
        } else if (c == 0xC2 || c == 0xE2) {
            length = std::min<size_t>(c == 0xC2 ? 2 : 3, document.size() - i);
            replacement = lineBreakEscape(c, document, i, length);
        }
        if (replacement == nullptr) continue;
        out.append(document.data() + runStart, i - runStart);
        out += replacement;
        i += length - 1;
        runStart = i + 1;
    }
    out.append(document.data() + runStart, document.size() - runStart);
}

void appendHexString(std::string& out, std::string_view bytes) {
    out.push_back('"');
    size_t start = out.size();
    out.resize(start + bytes.size() * 2);
    char* cursor = out.data() + start;
    for (unsigned char c : bytes) {
        *cursor++ = kHex[c >> 4];
        *cursor++ = kHex[c & 0xF];
    }
    out.push_back('"');
}

void appendInt64(std::string& out, int64_t value) {
    char buffer[24];
    auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
    out.append(buffer, result.ptr);
}

std::string utcNowIso() {
    auto now = std::chrono::system_clock::now();
    auto micros =
        std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count();
    std::time_t seconds = static_cast<std::time_t>(micros / 1000000);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char buffer[96];
    std::snprintf(buffer, sizeof(buffer), "%04d-%02d-%02dT%02d:%02d:%02d.%06d+00:00",
                  utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min,
                  utc.tm_sec, static_cast<int>(micros % 1000000));
    return buffer;
}

void appendUtf8(std::string& out, uint32_t codePoint) {
    if (codePoint < 0x80) {
        out.push_back(static_cast<char>(codePoint));
    } else if (codePoint < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (codePoint >> 6)));
        out.push_back(static_cast<char>(0x80 | (codePoint & 0x3F)));
    } else if (codePoint < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (codePoint >> 12)));
        out.push_back(static_cast<char>(0x80 | ((codePoint >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (codePoint & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (codePoint >> 18)));
        out.push_back(static_cast<char>(0x80 | ((codePoint >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((codePoint >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (codePoint & 0x3F)));
    }
}

}  // namespace tapdiffgen::core

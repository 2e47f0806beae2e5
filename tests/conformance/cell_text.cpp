#include "cell_text.hpp"

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string_view>

namespace tapdiffgen::conformance {
namespace {

const char* const kKindNames[] = {"null", "bool", "int64", "decimal",   "text",       "bytes",
                                  "json", "date", "time",  "timestamp", "timestamptz"};

std::string jsonQuoted(std::string_view text) {
    std::string out = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\') {
            out.push_back('\\');
            out.push_back(c);
        } else if (static_cast<unsigned char>(c) < 0x20) {
            static const char* hex = "0123456789abcdef";
            out += "\\u00";
            out.push_back(hex[(c >> 4) & 0xF]);
            out.push_back(hex[c & 0xF]);
        } else {
            out.push_back(c);
        }
    }
    return out + "\"";
}

// Reads a text against the shapes the ABI promises, left to right. (Hand-written rather than
// std::regex: g++ 12 warns inside libstdc++'s regex headers, and the build has no warnings.)
class Shape {
public:
    explicit Shape(std::string_view text) : text_(text) {}

    bool end() const { return at_ == text_.size(); }
    bool literal(char c) {
        if (at_ < text_.size() && text_[at_] == c) {
            ++at_;
            return true;
        }
        return false;
    }
    bool oneOf(const char* chars) {
        if (at_ < text_.size() && std::strchr(chars, text_[at_]) != nullptr && text_[at_] != 0) {
            ++at_;
            return true;
        }
        return false;
    }
    /// Between least and most digits (most 0: no limit).
    bool digits(size_t least, size_t most = 0) {
        size_t start = at_;
        while (at_ < text_.size() && (most == 0 || at_ - start < most) &&
               std::isdigit(static_cast<unsigned char>(text_[at_])) != 0) {
            ++at_;
        }
        return at_ - start >= least;
    }
    bool fraction(size_t most) { return !literal('.') || digits(1, most); }
    bool day() { return digits(4) && literal('-') && digits(2, 2) && literal('-') && digits(2, 2); }
    bool clock(size_t leastHourDigits) {
        return digits(leastHourDigits) && literal(':') && digits(2, 2) && literal(':') &&
               digits(2, 2) && fraction(6);
    }
    bool offset() {
        if (!oneOf("+-") || !digits(2, 2) || !literal(':') || !digits(2, 2)) return false;
        return !literal(':') || digits(2, 2);  // an offset may carry seconds
    }

private:
    std::string_view text_;
    size_t at_ = 0;
};

bool isNumber(std::string_view text) {
    Shape shape(text);
    shape.literal('-');
    if (!shape.literal('0') && !(shape.oneOf("123456789") && shape.digits(0))) return false;
    if (!shape.fraction(0)) return false;
    if (shape.oneOf("eE")) {
        shape.oneOf("+-");
        if (!shape.digits(1)) return false;
    }
    return shape.end();
}

// The text forms the ABI promises for each text-carrying kind (see TdgValueKind).
bool hasAbiForm(TdgValueKind kind, const std::string& text) {
    Shape shape(text);
    switch (kind) {
        case TDG_KIND_DECIMAL:
            return isNumber(text);
        case TDG_KIND_DATE:
            shape.literal('-');
            return shape.day() && shape.end();
        case TDG_KIND_TIME:
            // Hours may exceed 24 and carry a sign (MySQL TIME).
            shape.literal('-');
            return shape.clock(2) && (shape.end() || (shape.offset() && shape.end()));
        case TDG_KIND_TIMESTAMP:
            return shape.day() && shape.literal('T') && shape.clock(2) && shape.end();
        case TDG_KIND_TIMESTAMPTZ:
            return shape.day() && shape.literal('T') && shape.clock(2) && shape.offset() &&
                   shape.end();
        default:
            return true;
    }
}

// BYTES compare as the engine writes them: lowercase hex.
std::string lowercaseHex(std::string_view bytes) {
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (char c : bytes) {
        out.push_back(hex[(static_cast<unsigned char>(c) >> 4) & 0xF]);
        out.push_back(hex[static_cast<unsigned char>(c) & 0xF]);
    }
    return out;
}

std::string textOfKind(TdgValueKind kind, const std::string& text) {
    if (kind == TDG_KIND_DECIMAL) return canonicalDecimal(text);
    if (kind == TDG_KIND_TIME || kind == TDG_KIND_TIMESTAMP || kind == TDG_KIND_TIMESTAMPTZ) {
        return jsonQuoted(withoutZeroFraction(text));
    }
    return jsonQuoted(text);
}

}  // namespace

std::string kindName(TdgValueKind kind) {
    if (kind < 0 || kind > TDG_KIND_TIMESTAMPTZ) return "kind " + std::to_string(kind);
    return kKindNames[kind];
}

TdgValueKind kindFromName(const std::string& name) {
    for (TdgValueKind kind = TDG_KIND_NULL; kind <= TDG_KIND_TIMESTAMPTZ; ++kind) {
        if (name == kKindNames[kind]) return kind;
    }
    throw std::invalid_argument("unknown kind '" + name + "'");
}

namespace {

// "1.5e-7" → "0.00000015", "1e3" → "1000": the exponent moved into the digits, so that two
// spellings of one number (a float's "1e-09", a numeric's "0.000000001") compare equal.
std::string withoutExponent(const std::string& text) {
    size_t exponentAt = text.find_first_of("eE");
    if (exponentAt == std::string::npos) return text;
    long exponent = std::strtol(text.c_str() + exponentAt + 1, nullptr, 10);
    std::string mantissa = text.substr(0, exponentAt);
    std::string sign;
    if (!mantissa.empty() && mantissa[0] == '-') {
        sign = "-";
        mantissa.erase(0, 1);
    }
    size_t dot = mantissa.find('.');
    long point = static_cast<long>(dot == std::string::npos ? mantissa.size() : dot);
    if (dot != std::string::npos) mantissa.erase(dot, 1);
    point += exponent;
    if (point <= 0) {
        mantissa.insert(0, static_cast<size_t>(-point) + 1, '0');
        point = 1;
    } else if (point > static_cast<long>(mantissa.size())) {
        mantissa.append(static_cast<size_t>(point) - mantissa.size(), '0');
    }
    std::string whole = mantissa.substr(0, static_cast<size_t>(point));
    std::string fraction = mantissa.substr(static_cast<size_t>(point));
    size_t firstDigit = whole.find_first_not_of('0');
    whole = firstDigit == std::string::npos ? "0" : whole.substr(firstDigit);
    return sign + whole + (fraction.empty() ? "" : "." + fraction);
}

}  // namespace

std::string canonicalDecimal(std::string_view text) {
    std::string mantissa = withoutExponent(std::string(text));
    if (mantissa.find('.') != std::string::npos) {
        while (!mantissa.empty() && mantissa.back() == '0') mantissa.pop_back();
        if (!mantissa.empty() && mantissa.back() == '.') mantissa.pop_back();
    }
    if (mantissa == "-0") mantissa = "0";
    return mantissa;
}

int decimalPlaces(std::string_view text) {
    std::string canonical = canonicalDecimal(text);
    size_t dot = canonical.find('.');
    return dot == std::string::npos ? 0 : static_cast<int>(canonical.size() - dot - 1);
}

std::string withoutZeroFraction(std::string_view text) {
    std::string out(text);
    size_t dot = out.find('.');
    if (dot == std::string::npos) return out;
    size_t end = dot + 1;
    while (end < out.size() && out[end] >= '0' && out[end] <= '9') ++end;
    size_t last = end;
    while (last > dot + 1 && out[last - 1] == '0') --last;
    if (last == dot + 1) last = dot;  // all zeros: drop the dot too
    return out.erase(last, end - last);
}

std::string cellText(const TdgCell& cell) {
    switch (cell.kind) {
        case TDG_KIND_NULL:
            return "null";
        case TDG_KIND_BOOL:
            if (cell.i64 == 0 || cell.i64 == 1) return cell.i64 == 1 ? "true" : "false";
            return "invalid bool " + std::to_string(cell.i64);
        case TDG_KIND_INT64:
            return std::to_string(cell.i64);
        default:
            break;
    }
    if (cell.kind < TDG_KIND_NULL || cell.kind > TDG_KIND_TIMESTAMPTZ) {
        return "invalid kind " + std::to_string(cell.kind);
    }
    if (cell.data == nullptr && cell.size > 0)
        return "invalid " + kindName(cell.kind) + " NULL data";
    std::string text = cell.size > 0 ? std::string(cell.data, cell.size) : std::string();
    if (!hasAbiForm(cell.kind, text))
        return "invalid " + kindName(cell.kind) + " " + jsonQuoted(text);
    if (cell.kind == TDG_KIND_BYTES) return jsonQuoted(lowercaseHex(text));
    return textOfKind(cell.kind, text);
}

std::string expectedText(const Poco::Dynamic::Var& value, TdgValueKind kind) {
    if (value.isEmpty()) return "null";
    if (value.isBoolean()) return value.extract<bool>() ? "true" : "false";
    if (kind == TDG_KIND_DECIMAL) return canonicalDecimal(value.toString());
    if (value.isNumeric()) return value.toString();
    if (kind == TDG_KIND_BYTES) {
        std::string hex = value.toString();
        for (char& c : hex) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return jsonQuoted(hex);
    }
    return textOfKind(kind, value.toString());
}

}  // namespace tapdiffgen::conformance

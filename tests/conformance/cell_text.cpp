#include "cell_text.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string_view>

#include "support/exact_json.hpp"

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
    bool day() {
        return digits(4, 4) && literal('-') && digits(2, 2) && literal('-') && digits(2, 2);
    }
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

int twoDigits(std::string_view text, size_t at) {
    return (text[at] - '0') * 10 + (text[at + 1] - '0');
}

bool isLeapYear(int year) { return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0); }

// "YYYY-MM-DD" at the start of a text Shape::day() accepted: a day the calendar has.
bool realDay(std::string_view text) {
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const int year = twoDigits(text, 0) * 100 + twoDigits(text, 2);
    const int month = twoDigits(text, 5);
    const int day = twoDigits(text, 8);
    if (month < 1 || month > 12 || day < 1) return false;
    return day <= (month == 2 && isLeapYear(year) ? 29 : days[month - 1]);
}

// "HH:MM:SS" ending at `end` (after a Shape::clock): minutes and seconds below 60, and the
// hours below `hourLimit` when the clock has two hour digits.
bool realClock(std::string_view text, size_t end, int hourLimit) {
    return twoDigits(text, end - 5) < 60 && twoDigits(text, end - 2) < 60 &&
           (hourLimit == 0 || twoDigits(text, end - 8) < hourLimit);
}

// "+HH:MM[:SS]" at `at`: less than a day, minutes and seconds below 60.
bool realOffset(std::string_view text, size_t at) {
    if (twoDigits(text, at + 1) >= 24 || twoDigits(text, at + 4) >= 60) return false;
    return text.size() == at + 6 || twoDigits(text, at + 7) < 60;
}

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

// Where the clock that starts at `from` ends ("HH:MM:SS" plus any fraction).
size_t clockEnd(std::string_view text, size_t from) {
    size_t end = text.find_first_of("+-", from);
    return end == std::string_view::npos ? text.size() : end;
}

// A timestamp's fields, after Shape accepted its form: a real day, a clock before 24:00, and
// a real offset.
bool realTimestamp(std::string_view text) {
    size_t end = clockEnd(text, 11);
    size_t fraction = text.find('.', 11);
    size_t clock = fraction == std::string_view::npos || fraction > end ? end : fraction;
    return realDay(text) && realClock(text, clock, 24) &&
           (end == text.size() || realOffset(text, end));
}

// A TIME: a duration of any hours (MySQL), or a time of day of two hour digits up to 24:00:00
// when it has an offset (timetz).
bool realTime(std::string_view text) {
    size_t start = text[0] == '-' ? 1 : 0;
    size_t end = clockEnd(text, start);
    size_t fraction = text.find('.', start);
    size_t clock = fraction == std::string_view::npos || fraction > end ? end : fraction;
    if (end == text.size()) return realClock(text, clock, 0);
    if (start != 0 || clock != 8 || !realOffset(text, end)) return false;
    const bool dayEnd = text.substr(2, end - 2).find_first_not_of("0:.") == std::string_view::npos;
    return realClock(text, clock, 24) || (twoDigits(text, 0) == 24 && dayEnd);
}

// A JSON value as one text per meaning: members sorted by name, no white space, strings
// escaped one way, numbers as canonicalDecimal writes them (a server may keep 2.50 or make it
// 2.5, write 5e-4 or 0.0005).
void appendMeaning(const testing::ExactJson& value, std::string& out) {
    using Type = testing::ExactJson::Type;
    switch (value.type()) {
        case Type::Number:
            out += canonicalDecimal(value.scalar());
            return;
        case Type::String:
            out += jsonQuoted(value.scalar());
            return;
        case Type::Array:
            out += '[';
            for (size_t i = 0; i < value.items().size(); ++i) {
                if (i > 0) out += ',';
                appendMeaning(value.items()[i], out);
            }
            out += ']';
            return;
        case Type::Object: {
            auto members = value.members();
            std::stable_sort(members.begin(), members.end(),
                             [](const auto& a, const auto& b) { return a.first < b.first; });
            out += '{';
            for (size_t i = 0; i < members.size(); ++i) {
                out += (i > 0 ? "," : "") + jsonQuoted(members[i].first) + ":";
                appendMeaning(members[i].second, out);
            }
            out += '}';
            return;
        }
        default:
            out += value.isNull() ? "null" : value.scalar();
    }
}

bool isJsonDocument(const std::string& text) {
    try {
        testing::ExactJson::parse(text);
        return true;
    } catch (const std::invalid_argument&) {
        return false;
    }
}

// The text forms the ABI promises for each text-carrying kind (see TdgValueKind), with fields
// the calendar and the clock have: "2024-02-30" or "25:61:00" has the form but is no value.
bool hasAbiForm(TdgValueKind kind, const std::string& text) {
    Shape shape(text);
    switch (kind) {
        case TDG_KIND_DECIMAL:
            return isNumber(text);
        case TDG_KIND_JSON:
            return isJsonDocument(text);
        case TDG_KIND_DATE:
            return shape.day() && shape.end() && realDay(text);
        case TDG_KIND_TIME:
            // Hours may exceed 24 and carry a sign (MySQL TIME).
            shape.literal('-');
            return shape.clock(2) && (shape.end() || (shape.offset() && shape.end())) &&
                   realTime(text);
        case TDG_KIND_TIMESTAMP:
            return shape.day() && shape.literal('T') && shape.clock(2) && shape.end() &&
                   realTimestamp(text);
        case TDG_KIND_TIMESTAMPTZ:
            return shape.day() && shape.literal('T') && shape.clock(2) && shape.offset() &&
                   shape.end() && realTimestamp(text);
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

// A DECIMAL as a consumer reads its text: the digits and the scale as written; only a number
// written with an exponent (a float's shortest form) is moved into plain digits, by value.
std::string decimalText(std::string_view text) {
    if (text.find_first_of("eE") != std::string_view::npos) return canonicalDecimal(text);
    std::string digits(text);
    if (digits.find_first_of("123456789") == std::string::npos && !digits.empty() &&
        digits[0] == '-') {
        digits.erase(0, 1);  // the ABI allows -0 for 0
    }
    return digits;
}

std::string textOfKind(TdgValueKind kind, const std::string& text) {
    if (kind == TDG_KIND_DECIMAL) return decimalText(text);
    // JSON by meaning: white space, the order of an object's members and the spelling of a
    // number do not count; a JSON text that does not parse stays as it is.
    if (kind == TDG_KIND_JSON && isJsonDocument(text)) {
        std::string meaning;
        appendMeaning(testing::ExactJson::parse(text), meaning);
        return meaning;
    }
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

// Past this length a canonical decimal is written as "d.ddde<exponent>" (5e-324 would be 324
// digits): still one text per value, and one a message can show.
constexpr size_t kLongestPlain = 40;

// A plain canonical decimal ("-0.00012", "120") as "-1.2e-4", "1.2e2".
std::string scientific(const std::string& plain) {
    const bool negative = plain[0] == '-';
    std::string digits = plain.substr(negative ? 1 : 0);
    size_t dot = digits.find('.');
    long point = static_cast<long>(dot == std::string::npos ? digits.size() : dot);
    if (dot != std::string::npos) digits.erase(dot, 1);
    size_t first = digits.find_first_not_of('0');
    point -= static_cast<long>(first);
    digits.erase(0, first);
    while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
    std::string out = negative ? "-" : "";
    out += digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    return out + "e" + std::to_string(point - 1);
}

// The number in plain notation without trailing fractional zeros: "1.50e1" → "15".
std::string plainDecimal(std::string_view text) {
    std::string mantissa = withoutExponent(std::string(text));
    if (mantissa.find('.') != std::string::npos) {
        while (!mantissa.empty() && mantissa.back() == '0') mantissa.pop_back();
        if (!mantissa.empty() && mantissa.back() == '.') mantissa.pop_back();
    }
    if (mantissa == "-0") mantissa = "0";
    return mantissa;
}

}  // namespace

std::string canonicalDecimal(std::string_view text) {
    std::string plain = plainDecimal(text);
    return plain.size() > kLongestPlain ? scientific(plain) : plain;
}

int decimalPlaces(std::string_view text) {
    std::string canonical = plainDecimal(text);
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

namespace {

std::string expectedString(const std::string& text, TdgValueKind kind) {
    if (kind == TDG_KIND_BYTES) {
        std::string hex = text;
        for (char& c : hex) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return jsonQuoted(hex);
    }
    return textOfKind(kind, text);
}

}  // namespace

std::string expectedText(const Poco::Dynamic::Var& value, TdgValueKind kind) {
    if (value.isEmpty()) return "null";
    if (value.isBoolean()) return value.extract<bool>() ? "true" : "false";
    if (kind == TDG_KIND_DECIMAL) return decimalText(value.toString());
    if (value.isNumeric()) return value.toString();
    return expectedString(value.toString(), kind);
}

std::string expectedText(const testing::ExactJson& value, TdgValueKind kind) {
    using Type = testing::ExactJson::Type;
    switch (value.type()) {
        case Type::Null:
            return "null";
        case Type::Bool:
            return value.scalar();
        case Type::Number:
            return kind == TDG_KIND_DECIMAL ? decimalText(value.scalar()) : value.scalar();
        case Type::String:
            return expectedString(value.scalar(), kind);
        case Type::Object:
            if (value.has("repeat") && value.has("times")) {
                std::string text;
                const std::string& unit = value.at("repeat").scalar();
                const long times = std::stol(value.at("times").scalar());
                text.reserve(unit.size() * static_cast<size_t>(std::max(times, 0L)));
                for (long i = 0; i < times; ++i) text += unit;
                return expectedString(text, kind);
            }
            break;
        default:
            break;
    }
    throw std::invalid_argument(
        "expected.json: a value must be null, a boolean, a number, a "
        "string or {\"repeat\": text, \"times\": n}, not " +
        value.canonical());
}

}  // namespace tapdiffgen::conformance

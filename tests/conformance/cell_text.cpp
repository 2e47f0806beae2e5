#include "cell_text.hpp"

#include <regex>
#include <stdexcept>

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

// The text forms the ABI promises for each text-carrying kind (see TdgValueKind).
bool hasAbiForm(TdgValueKind kind, const std::string& text) {
    static const std::string fraction = R"((\.[0-9]{1,6})?)";
    static const std::string day = R"([0-9]{4,}-[0-9]{2}-[0-9]{2})";
    static const std::string clock = R"([0-9]{2}:[0-9]{2}:[0-9]{2})" + fraction;
    static const std::string offset = R"([+-][0-9]{2}:[0-9]{2})";
    static const std::regex number(R"(-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?)");
    static const std::regex date("-?" + day);
    // Hours may exceed 24 and carry a sign (MySQL TIME); offsets may have seconds.
    static const std::regex time(R"(-?[0-9]{2,}:[0-9]{2}:[0-9]{2})" + fraction + "(" + offset +
                                 R"((:[0-9]{2})?)?)");
    static const std::regex timestamp(day + "T" + clock);
    static const std::regex timestamptz(day + "T" + clock + offset);
    switch (kind) {
        case TDG_KIND_DECIMAL:
            return std::regex_match(text, number);
        case TDG_KIND_DATE:
            return std::regex_match(text, date);
        case TDG_KIND_TIME:
            return std::regex_match(text, time);
        case TDG_KIND_TIMESTAMP:
            return std::regex_match(text, timestamp);
        case TDG_KIND_TIMESTAMPTZ:
            return std::regex_match(text, timestamptz);
        default:
            return true;
    }
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

std::string canonicalDecimal(std::string_view text) {
    std::string digits(text);
    size_t exponent = digits.find_first_of("eE");
    std::string tail = exponent == std::string::npos ? "" : digits.substr(exponent);
    std::string mantissa = digits.substr(0, exponent);
    if (mantissa.find('.') != std::string::npos) {
        while (!mantissa.empty() && mantissa.back() == '0') mantissa.pop_back();
        if (!mantissa.empty() && mantissa.back() == '.') mantissa.pop_back();
    }
    if (mantissa == "-0") mantissa = "0";
    return mantissa + tail;
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
    return textOfKind(cell.kind, text);
}

std::string expectedText(const Poco::Dynamic::Var& value, TdgValueKind kind) {
    if (value.isEmpty()) return "null";
    if (value.isBoolean()) return value.extract<bool>() ? "true" : "false";
    if (kind == TDG_KIND_DECIMAL) return canonicalDecimal(value.toString());
    if (value.isNumeric()) return value.toString();
    return textOfKind(kind, value.toString());
}

}  // namespace tapdiffgen::conformance

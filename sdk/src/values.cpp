#include "tap-diffgen/sdk/values.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "tap-diffgen/sdk/errors.hpp"

namespace tapdiffgen::sdk {

std::string multipleOfForScale(int scale) {
    if (scale <= 0) return "1";
    return "0." + std::string(static_cast<size_t>(scale - 1), '0') + "1";
}

std::string jsonSchemaForKind(TdgValueKind kind, int scale) {
    switch (kind) {
        case TDG_KIND_BOOL:
            return R"({"type":"boolean"})";
        case TDG_KIND_INT64:
            return R"({"type":"integer"})";
        case TDG_KIND_DECIMAL:
            if (scale >= 0) {
                return R"({"type":"number","multipleOf":)" + multipleOfForScale(scale) + "}";
            }
            return R"({"type":"number"})";
        case TDG_KIND_BYTES:
            return R"({"type":"string","contentEncoding":"base16"})";
        case TDG_KIND_JSON:
            return "{}";
        case TDG_KIND_DATE:
            return R"({"type":"string","format":"date"})";
        case TDG_KIND_TIMESTAMP:
        case TDG_KIND_TIMESTAMPTZ:
            return R"({"type":"string","format":"date-time"})";
        default:
            return R"({"type":"string"})";
    }
}

std::string jsonSchemaForDecimal(int precision, int scale) {
    const bool checkable = precision >= 1 && precision <= kLargestCheckedPrecision;
    return jsonSchemaForKind(TDG_KIND_DECIMAL, checkable ? scale : -1);
}

std::string jsonSchemaForKind(TdgValueKind kind, int scale, std::string_view format) {
    std::string schema = jsonSchemaForKind(kind, scale);
    if (format.empty()) return schema;
    std::string keyword = R"("format":")" + std::string(format) + "\"";
    size_t existing = schema.find(R"("format":")");
    if (existing != std::string::npos) {
        size_t end = schema.find('"', existing + 10);
        return schema.replace(existing, end + 1 - existing, keyword);
    }
    schema.pop_back();  // the closing brace
    return schema + (schema.size() > 1 ? "," : "") + keyword + "}";
}

std::optional<std::string> formatDouble(double value) {
    if (!std::isfinite(value)) return std::nullopt;
    char buffer[32];
    auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
    return std::string(buffer, result.ptr);
}

std::optional<std::string> formatFloat(float value) {
    if (!std::isfinite(value)) return std::nullopt;
    char buffer[32];
    auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
    return std::string(buffer, result.ptr);
}

namespace {

bool isDecimalDigit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

bool isJsonNumber(std::string_view text) {
    size_t i = 0;
    auto digits = [&] {
        size_t start = i;
        while (i < text.size() && isDecimalDigit(text[i])) ++i;
        return i - start;
    };
    if (i < text.size() && text[i] == '-') ++i;
    if (i >= text.size()) return false;
    if (text[i] == '0') {
        ++i;
    } else if (digits() == 0) {
        return false;
    }
    if (i < text.size() && text[i] == '.') {
        ++i;
        if (digits() == 0) return false;
    }
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
        if (digits() == 0) return false;
    }
    return i == text.size();
}

std::string jsonNumberFromDecimal(std::string_view text, const std::string& what) {
    auto reject = [&]() -> std::string {
        throw DriverError(TDG_INVALID_DATA,
                          what + ": '" + std::string(text.substr(0, 64)) + "' is not a number");
    };
    size_t i = 0;
    std::string out;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) {
        if (text[i] == '-') out.push_back('-');
        ++i;
    }
    size_t wholeStart = i;
    while (i < text.size() && isDecimalDigit(text[i])) ++i;
    std::string_view whole = text.substr(wholeStart, i - wholeStart);
    std::string_view fraction;
    if (i < text.size() && text[i] == '.') {
        size_t fractionStart = ++i;
        while (i < text.size() && isDecimalDigit(text[i])) ++i;
        fraction = text.substr(fractionStart, i - fractionStart);
    }
    if (whole.empty() && fraction.empty()) return reject();
    size_t firstNonZero = whole.find_first_not_of('0');
    out.append(firstNonZero == std::string_view::npos ? "0" : whole.substr(firstNonZero));
    if (!fraction.empty()) {
        out.push_back('.');
        out.append(fraction);
    }
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        size_t exponentStart = i++;
        if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
        size_t digitsStart = i;
        while (i < text.size() && isDecimalDigit(text[i])) ++i;
        if (i == digitsStart) return reject();
        out.append(text.substr(exponentStart, i - exponentStart));
    }
    if (i != text.size()) return reject();
    return out;
}

std::string quoteIdentifier(std::string_view name, char quote) {
    std::string quoted;
    quoted.reserve(name.size() + 2);
    quoted.push_back(quote);
    for (char c : name) {
        if (c == quote) quoted.push_back(quote);
        quoted.push_back(c);
    }
    quoted.push_back(quote);
    return quoted;
}

std::string quoteTableName(const std::optional<std::string>& schema, std::string_view name,
                           char quote) {
    if (!schema) return quoteIdentifier(name, quote);
    return quoteIdentifier(*schema, quote) + "." + quoteIdentifier(name, quote);
}

}  // namespace tapdiffgen::sdk

#include "util/json_value.hpp"

#include <Poco/Exception.h>
#include <Poco/JSON/JSONException.h>
#include <Poco/JSON/ParseHandler.h>
#include <Poco/JSON/Parser.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <system_error>

namespace tapdiffgen::core::jsonvalue {

namespace {

using Poco::Dynamic::Var;
using Poco::JSON::Array;
using Poco::JSON::Object;

// Poco reports the end of the text as the byte 0xFF ("unexpected byte '\xff'").
std::string cleanParserMessage(const std::string& message) {
    std::string clean;
    const std::string endByte = "byte '\xff'";
    for (std::size_t i = 0; i < message.size(); ++i) {
        if (message.compare(i, endByte.size(), endByte) == 0) {
            clean += "end of text";
            i += endByte.size() - 1;
            continue;
        }
        const auto byte = static_cast<unsigned char>(message[i]);
        if (byte < 0x20 || byte >= 0x7f) {
            static const char* digits = "0123456789abcdef";
            clean += "\\x";
            clean += digits[byte >> 4];
            clean += digits[byte & 0xf];
        } else {
            clean += message[i];
        }
    }
    return clean;
}

Var parseStrict(const std::string& text) {
    Poco::JSON::Parser parser(new Poco::JSON::ParseHandler(true));
    try {
        return parser.parse(text);
    } catch (const Poco::Exception& e) {
        throw JsonSyntaxError(
            cleanParserMessage(e.message().empty() ? e.displayText() : e.message()));
    }
}

bool startsWithContainer(const std::string& text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    return first != std::string::npos && (text[first] == '{' || text[first] == '[');
}

// Decodes one UTF-8 sequence at text[i], advancing i; invalid bytes become U+FFFD.
char32_t decodeUtf8(std::string_view text, std::size_t& i) {
    const auto lead = static_cast<unsigned char>(text[i++]);
    if (lead < 0x80) return lead;
    int extra = lead >= 0xf0 ? 3 : lead >= 0xe0 ? 2 : lead >= 0xc0 ? 1 : -1;
    if (extra < 0 || lead > 0xf4) return U'\uFFFD';
    char32_t code = lead & (0x3f >> extra);
    for (int k = 0; k < extra; ++k) {
        if (i >= text.size() || (static_cast<unsigned char>(text[i]) & 0xc0) != 0x80) {
            return U'\uFFFD';
        }
        code = (code << 6) | (static_cast<unsigned char>(text[i++]) & 0x3f);
    }
    return code;
}

void appendHex4(std::string& out, unsigned value) {
    static const char* digits = "0123456789abcdef";
    out += "\\u";
    for (int shift = 12; shift >= 0; shift -= 4) out += digits[(value >> shift) & 0xf];
}

void appendEscapedCodePoint(std::string& out, char32_t code) {
    switch (code) {
        case U'"':
            out += "\\\"";
            return;
        case U'\\':
            out += "\\\\";
            return;
        case U'\n':
            out += "\\n";
            return;
        case U'\r':
            out += "\\r";
            return;
        case U'\t':
            out += "\\t";
            return;
        case U'\b':
            out += "\\b";
            return;
        case U'\f':
            out += "\\f";
            return;
        default:
            break;
    }
    if (code >= 0x20 && code < 0x80) {
        out += static_cast<char>(code);
    } else if (code >= 0x10000) {
        const char32_t v = code - 0x10000;
        appendHex4(out, 0xd800 + static_cast<unsigned>(v >> 10));
        appendHex4(out, 0xdc00 + static_cast<unsigned>(v & 0x3ff));
    } else {
        appendHex4(out, static_cast<unsigned>(code));
    }
}

std::string integerText(const Var& value) {
    return value.isSigned() ? std::to_string(value.convert<Poco::Int64>())
                            : std::to_string(value.convert<Poco::UInt64>());
}

std::string numberText(const Var& value) {
    return kindOf(value) == Kind::Integer ? integerText(value)
                                          : formatDouble(value.convert<double>());
}

void writeValue(std::string& out, const Var& value, int indent, int depth);

void newlineAndIndent(std::string& out, int indent, int depth) {
    if (indent <= 0) return;
    out += '\n';
    out.append(static_cast<std::size_t>(indent * depth), ' ');
}

void writeObject(std::string& out, const Object& object, int indent, int depth) {
    const auto names = object.getNames();
    if (names.empty()) {
        out += "{}";
        return;
    }
    out += '{';
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i > 0) out += ',';
        newlineAndIndent(out, indent, depth + 1);
        out += quote(names[i]);
        out += indent > 0 ? ": " : ":";
        writeValue(out, object.get(names[i]), indent, depth + 1);
    }
    newlineAndIndent(out, indent, depth);
    out += '}';
}

void writeArray(std::string& out, const Array& array, int indent, int depth) {
    if (array.size() == 0) {
        out += "[]";
        return;
    }
    out += '[';
    for (std::size_t i = 0; i < array.size(); ++i) {
        if (i > 0) out += ',';
        newlineAndIndent(out, indent, depth + 1);
        writeValue(out, array.get(static_cast<unsigned>(i)), indent, depth + 1);
    }
    newlineAndIndent(out, indent, depth);
    out += ']';
}

void writeValue(std::string& out, const Var& value, int indent, int depth) {
    switch (kindOf(value)) {
        case Kind::Null:
            out += "null";
            return;
        case Kind::Boolean:
            out += value.convert<bool>() ? "true" : "false";
            return;
        case Kind::Integer:
            out += integerText(value);
            return;
        case Kind::Number: {
            const double d = value.convert<double>();
            out += std::isfinite(d) ? formatDouble(d) : "null";
            return;
        }
        case Kind::String:
            out += quote(value.convert<std::string>());
            return;
        case Kind::Array:
            writeArray(out, *value.extract<Array::Ptr>(), indent, depth);
            return;
        case Kind::Object:
            writeObject(out, *value.extract<Object::Ptr>(), indent, depth);
            return;
    }
}

std::string pythonStringRepr(std::string_view text) {
    const bool hasSingle = text.find('\'') != std::string_view::npos;
    const bool hasDouble = text.find('"') != std::string_view::npos;
    const char quoteChar = hasSingle && !hasDouble ? '"' : '\'';
    std::string out(1, quoteChar);
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '\\' || c == quoteChar) {
            out += '\\';
            out += c;
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\r') {
            out += "\\r";
        } else if (c == '\t') {
            out += "\\t";
        } else if (byte < 0x20 || byte == 0x7f) {
            static const char* digits = "0123456789abcdef";
            out += "\\x";
            out += digits[byte >> 4];
            out += digits[byte & 0xf];
        } else {
            out += c;
        }
    }
    out += quoteChar;
    return out;
}

// Stops descending once `budget` characters exist: the result is cut anyway.
void appendRepr(std::string& out, const Var& value, std::size_t budget) {
    if (out.size() > budget) return;
    switch (kindOf(value)) {
        case Kind::Null:
            out += "None";
            return;
        case Kind::Boolean:
            out += value.convert<bool>() ? "True" : "False";
            return;
        case Kind::Integer:
        case Kind::Number:
            out += numberText(value);
            return;
        case Kind::String:
            out += pythonStringRepr(value.convert<std::string>());
            return;
        case Kind::Array: {
            const auto& array = *value.extract<Array::Ptr>();
            out += '[';
            for (std::size_t i = 0; i < array.size() && out.size() <= budget; ++i) {
                if (i > 0) out += ", ";
                appendRepr(out, array.get(static_cast<unsigned>(i)), budget);
            }
            out += ']';
            return;
        }
        case Kind::Object: {
            const auto& object = *value.extract<Object::Ptr>();
            const auto names = object.getNames();
            out += '{';
            for (std::size_t i = 0; i < names.size() && out.size() <= budget; ++i) {
                if (i > 0) out += ", ";
                out += pythonStringRepr(names[i]) + ": ";
                appendRepr(out, object.get(names[i]), budget);
            }
            out += '}';
            return;
        }
    }
}

std::string truncateUtf8(std::string text, std::size_t maxLength) {
    if (text.size() <= maxLength) return text;
    std::size_t cut = maxLength > 3 ? maxLength - 3 : 0;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xc0) == 0x80) --cut;
    text.resize(cut);
    return text + "...";
}

}  // namespace

Kind kindOf(const Var& value) {
    if (value.isEmpty()) return Kind::Null;
    if (value.type() == typeid(Object::Ptr)) return Kind::Object;
    if (value.type() == typeid(Array::Ptr)) return Kind::Array;
    if (value.isBoolean()) return Kind::Boolean;
    if (value.isString()) return Kind::String;
    if (value.isInteger()) return Kind::Integer;
    if (value.isNumeric()) return Kind::Number;
    return Kind::String;
}

std::optional<std::int64_t> toInt64(const Var& value) {
    const Kind kind = kindOf(value);
    if (kind == Kind::Integer) {
        if (value.isSigned()) return value.convert<Poco::Int64>();
        const auto unsignedValue = value.convert<Poco::UInt64>();
        if (unsignedValue > static_cast<Poco::UInt64>(std::numeric_limits<std::int64_t>::max())) {
            return std::nullopt;
        }
        return static_cast<std::int64_t>(unsignedValue);
    }
    if (kind != Kind::Number || !matchesType(value, "integer")) return std::nullopt;
    const double d = value.convert<double>();
    // 2^63 itself is not representable; every double below it is.
    if (d < -9223372036854775808.0 || d >= 9223372036854775808.0) return std::nullopt;
    return static_cast<std::int64_t>(d);
}

bool matchesType(const Var& value, std::string_view schemaType) {
    const Kind kind = kindOf(value);
    if (schemaType == "string") return kind == Kind::String;
    if (schemaType == "boolean") return kind == Kind::Boolean;
    if (schemaType == "array") return kind == Kind::Array;
    if (schemaType == "object") return kind == Kind::Object;
    if (schemaType == "null") return kind == Kind::Null;
    if (schemaType == "number") return kind == Kind::Integer || kind == Kind::Number;
    if (schemaType == "integer") {
        if (kind == Kind::Integer) return true;
        if (kind != Kind::Number) return false;
        const double d = value.convert<double>();
        return std::isfinite(d) && std::floor(d) == d;
    }
    return false;
}

Var parse(const std::string& text) {
    try {
        return parseStrict(text);
    } catch (const JsonSyntaxError&) {
        // Poco rejects a bare scalar at the top level; wrapped in an array it parses.
        if (startsWithContainer(text)) throw;
        try {
            const Var wrapped = parseStrict("[" + text + "\n]");
            const auto& array = *wrapped.extract<Array::Ptr>();
            if (array.size() == 1) return array.get(0);
        } catch (const JsonSyntaxError&) {
        }
        throw;
    }
}

std::string write(const Var& value) {
    std::string out;
    writeValue(out, value, 0, 0);
    return out;
}

std::string writePretty(const Var& value, int indent) {
    std::string out;
    writeValue(out, value, indent, 0);
    return out;
}

std::string quote(std::string_view text) {
    std::string out = "\"";
    for (std::size_t i = 0; i < text.size();) appendEscapedCodePoint(out, decodeUtf8(text, i));
    out += '"';
    return out;
}

std::string pythonRepr(const Var& value, std::size_t maxLength) {
    std::string out;
    appendRepr(out, value, maxLength);
    return truncateUtf8(std::move(out), maxLength);
}

std::string pythonStr(const Var& value) {
    const Kind kind = kindOf(value);
    if (kind == Kind::String) return value.convert<std::string>();
    return pythonRepr(value, std::numeric_limits<std::size_t>::max());
}

std::string scalarText(const Var& value) {
    if (kindOf(value) == Kind::String) return value.convert<std::string>();
    return write(value);
}

std::string formatDouble(double value) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
    char buffer[64];
    const auto result =
        std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
    const std::string sci(buffer, result.ptr);
    const auto ePos = sci.find('e');
    const bool negative = sci[0] == '-';
    std::string digits;
    for (std::size_t i = negative ? 1 : 0; i < ePos; ++i) {
        if (sci[i] != '.') digits += sci[i];
    }
    const int exponent = std::stoi(sci.substr(ePos + 1));
    std::string out = negative ? "-" : "";
    // Python switches to exponent notation outside 1e-4 <= |x| < 1e16.
    if (exponent >= -4 && exponent < 16) {
        if (exponent < 0) {
            out += "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
        } else {
            const auto intDigits = static_cast<std::size_t>(exponent + 1);
            if (digits.size() <= intDigits) {
                out += digits + std::string(intDigits - digits.size(), '0') + ".0";
            } else {
                out += digits.substr(0, intDigits) + "." + digits.substr(intDigits);
            }
        }
        return out;
    }
    out += digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    const int magnitude = exponent < 0 ? -exponent : exponent;
    out += exponent < 0 ? "e-" : "e+";
    if (magnitude < 10) out += '0';
    out += std::to_string(magnitude);
    return out;
}

}  // namespace tapdiffgen::core::jsonvalue

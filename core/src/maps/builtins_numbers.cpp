// The conversions (int, float, str, bool) and the numeric functions (round, abs, rand,
// randint). Integers are 64-bit: what would not fit is an OverflowError.
#include <Poco/UTF8String.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>

#include "maps/builtins.hpp"
#include "maps/datetime.hpp"
#include "maps/lexer.hpp"

namespace tapdiffgen::core::maps {
namespace {

std::string stripped(const std::string& text) {
    const size_t begin = text.find_first_not_of(" \t\n\r\f\v");
    if (begin == std::string::npos) return "";
    const size_t end = text.find_last_not_of(" \t\n\r\f\v");
    return text.substr(begin, end - begin + 1);
}

// Python's int(): digits with single underscores between them, an optional sign, blanks around.
Value intFromString(const std::string& original) {
    const std::string text = stripped(original);
    std::string digits;
    size_t i = 0;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) digits.push_back(text[i++]);
    bool valid = i < text.size();
    for (; i < text.size() && valid; ++i) {
        const char c = text[i];
        const bool joint = c == '_' && i > 0 && isDigit(text[i - 1]) && i + 1 < text.size() &&
                           isDigit(text[i + 1]);
        if (isDigit(c)) {
            digits.push_back(c);
        } else if (!joint) {
            valid = false;
        }
    }
    if (!valid) {
        valueError("invalid literal for int() with base 10: " + repr(Value::fromString(original)));
    }
    errno = 0;
    const long long parsed = std::strtoll(digits.c_str(), nullptr, 10);
    if (errno != 0) overflowError("integer does not fit in 64 bits");
    return Value::fromInt(parsed);
}

Value intFromDouble(double d) {
    if (std::isnan(d)) valueError("cannot convert float NaN to integer");
    if (std::isinf(d)) overflowError("cannot convert float infinity to integer");
    const double truncated = std::trunc(d);
    if (truncated >= 9.223372036854775807e18 || truncated < -9.223372036854775808e18) {
        overflowError("integer does not fit in 64 bits");
    }
    return Value::fromInt(static_cast<int64_t>(truncated));
}

Value toInt(const Value& v) {
    switch (v.type) {
        case ValueType::Null:
            throw NullOperand{};
        case ValueType::Bool:
        case ValueType::Int:
            return Value::fromInt(v.integral());
        case ValueType::Float:
        case ValueType::Decimal:
            return intFromDouble(v.asDouble());
        case ValueType::String:
            return intFromString(v.text);
        default:
            typeError(
                "int() argument must be a string, a bytes-like object or a real number, not '" +
                typeName(v) + "'");
    }
}

// Python's float() of a string: blanks around, underscores between digits, inf and nan in any
// case; no hexadecimal, which strtod would take.
Value floatFromString(const Value& v) {
    std::string text = stripped(v.text);
    text.erase(std::remove(text.begin(), text.end(), '_'), text.end());
    const std::string lower = Poco::UTF8::toLower(text);
    const std::string magnitude =
        !lower.empty() && (lower[0] == '+' || lower[0] == '-') ? lower.substr(1) : lower;
    const bool special = magnitude == "inf" || magnitude == "infinity" || magnitude == "nan";
    char* end = nullptr;
    const double d = std::strtod(text.c_str(), &end);
    const bool hex = magnitude.rfind("0x", 0) == 0;
    const bool spelledOut =
        magnitude.find("inf") != std::string::npos || magnitude.find("nan") != std::string::npos;
    if (text.empty() || *end != '\0' || hex || (!special && spelledOut)) {
        valueError("could not convert string to float: " + repr(v));
    }
    return Value::fromFloat(d);
}

Value toFloat(const Value& v) {
    if (v.isNull()) throw NullOperand{};
    if (v.type == ValueType::String) return floatFromString(v);
    if (v.isNumber()) return Value::fromFloat(v.asDouble());
    typeError("float() argument must be a string or a real number, not '" + typeName(v) + "'");
}

Value toStr(const Value& v) { return Value::fromString(str(v)); }
Value toBool(const Value& v) { return Value::fromBool(truthy(v)); }

Value intCall(const Arguments& args, const Keywords&) {
    argumentCount(args, 0, 1, "int");
    return args.empty() ? Value::fromInt(0) : toInt(args[0]);
}
Value floatCall(const Arguments& args, const Keywords&) {
    argumentCount(args, 0, 1, "float");
    return args.empty() ? Value::fromFloat(0) : toFloat(args[0]);
}
Value strCall(const Arguments& args, const Keywords&) {
    argumentCount(args, 0, 1, "str");
    return Value::fromString(args.empty() ? "" : str(args[0]));
}
Value boolCall(const Arguments& args, const Keywords&) {
    argumentCount(args, 0, 1, "bool");
    return Value::fromBool(!args.empty() && truthy(args[0]));
}

// One per thread: streams with maps may be re-pulled on threads of their own at once.
double random01() {
    thread_local std::mt19937_64 engine{std::random_device{}()};
    return std::uniform_real_distribution<double>(0.0, 1.0)(engine);
}

Value randCall(const Arguments& args, const Keywords&) {
    argumentCount(args, 0, 0, "rand");
    return Value::fromFloat(random01());
}

// simpleeval's randint(top): int(random() * top).
Value randintCall(const Arguments& args, const Keywords&) {
    argumentCount(args, 1, 1, "randint");
    const Value& top = args[0];
    if (top.isNull()) throw NullOperand{};
    if (!top.isNumber()) {
        typeError("unsupported operand type(s) for *: 'float' and '" + typeName(top) + "'");
    }
    return intFromDouble(random01() * top.asDouble());
}

Value roundCall(const Arguments& args, const Keywords&) {
    argumentCount(args, 1, 2, "round");
    const Value& x = args[0];
    if (x.isNull()) throw NullOperand{};
    if (!x.isNumber()) typeError("type " + typeName(x) + " doesn't define __round__ method");
    if (args.size() == 1 || args[1].isNull()) {
        if (x.isIntegral()) return Value::fromInt(x.integral());
        return intFromDouble(std::nearbyint(x.asDouble()));
    }
    if (!args[1].isIntegral()) {
        typeError("'" + typeName(args[1]) + "' object cannot be interpreted as an integer");
    }
    const int64_t digits = args[1].integral();
    if (x.isIntegral() && digits >= 0) return Value::fromInt(x.integral());
    const double scale = std::pow(10.0, static_cast<double>(digits));
    return Value::fromFloat(std::nearbyint(x.asDouble() * scale) / scale);
}

Value absCall(const Arguments& args, const Keywords&) {
    argumentCount(args, 1, 1, "abs");
    const Value& x = args[0];
    if (x.isNull()) throw NullOperand{};
    if (x.isIntegral()) {
        if (x.integral() == INT64_MIN) overflowError("integer result does not fit in 64 bits");
        return Value::fromInt(std::llabs(x.integral()));
    }
    if (x.type == ValueType::Decimal) {
        return Value::fromDecimal(x.text[0] == '-' ? x.text.substr(1) : x.text);
    }
    if (x.type == ValueType::Float) return Value::fromFloat(std::fabs(x.number));
    if (x.type == ValueType::TimeDelta) return makeTimeDelta(std::llabs(x.integer));
    typeError("bad operand type for abs(): '" + typeName(x) + "'");
}

constexpr Function kNumberFunctions[] = {
    {"bool", boolCall, toBool, false, true},
    {"int", intCall, toInt, false, true},
    {"float", floatCall, toFloat, false, true},
    {"str", strCall, toStr, false, true},
    {"rand", randCall, nullptr, false, false},
    {"randint", randintCall, nullptr, false, false},
    // Beyond the SDK's functions.
    {"round", roundCall, nullptr, false, true},
    {"abs", absCall, nullptr, false, true},
};

}  // namespace

std::span<const Function> numberFunctions() { return kNumberFunctions; }

}  // namespace tapdiffgen::core::maps

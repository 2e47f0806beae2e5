#include "maps/operators.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "maps/code_points.hpp"
#include "maps/datetime.hpp"
#include "maps/limits.hpp"

namespace tapdiffgen::core::maps {
namespace {

const char* symbol(BinaryOp op) {
    switch (op) {
        case BinaryOp::Add:
            return "+";
        case BinaryOp::Subtract:
            return "-";
        case BinaryOp::Multiply:
            return "*";
        case BinaryOp::Divide:
            return "/";
        case BinaryOp::FloorDivide:
            return "//";
        case BinaryOp::Modulo:
            return "%";
        case BinaryOp::Power:
            return "** or pow()";
    }
    return "?";
}

[[noreturn]] void unsupported(BinaryOp op, const Value& a, const Value& b) {
    if (a.isNull() || b.isNull()) throw NullOperand{};
    typeError(std::string("unsupported operand type(s) for ") + symbol(op) + ": '" + typeName(a) +
              "' and '" + typeName(b) + "'");
}

[[noreturn]] void integerOverflow() { overflowError("integer result does not fit in 64 bits"); }

// a + b, a - b or a * b in 64 bits, as Python's int gives it when it fits.
template <typename Operation>
Value checkedInt(Operation operation, int64_t a, int64_t b) {
    int64_t result = 0;
    if (operation(a, b, &result)) integerOverflow();
    return Value::fromInt(result);
}

// Python's float.__pow__: its errors where C's pow() gives an infinity, a NaN or a complex
// number's real part without a word.
Value floatPower(double base, double exponent) {
    if (base == 0 && exponent < 0) {
        throw EvalError("ZeroDivisionError: 0.0 cannot be raised to a negative power");
    }
    if (std::isfinite(base) && base < 0 && std::isfinite(exponent) &&
        exponent != std::floor(exponent)) {
        typeError(
            "a negative number to a fractional power is a complex number, which JSON "
            "cannot hold");
    }
    const double result = std::pow(base, exponent);
    if (std::isinf(result) && std::isfinite(base) && std::isfinite(exponent)) {
        overflowError("(34, 'Numerical result out of range')");
    }
    return Value::fromFloat(result);
}

Value intPower(int64_t base, int64_t exponent) {
    // A negative exponent makes Python's int ** a float **.
    if (exponent < 0) return floatPower(static_cast<double>(base), static_cast<double>(exponent));
    int64_t result = 1;
    for (int64_t e = exponent; e > 0; e >>= 1) {
        if ((e & 1) && __builtin_mul_overflow(result, base, &result)) integerOverflow();
        if (e > 1 && __builtin_mul_overflow(base, base, &base)) integerOverflow();
    }
    return Value::fromInt(result);
}

Value intArithmetic(BinaryOp op, int64_t a, int64_t b) {
    switch (op) {
        case BinaryOp::Add:
            return checkedInt(
                [](int64_t x, int64_t y, int64_t* r) { return __builtin_add_overflow(x, y, r); }, a,
                b);
        case BinaryOp::Subtract:
            return checkedInt(
                [](int64_t x, int64_t y, int64_t* r) { return __builtin_sub_overflow(x, y, r); }, a,
                b);
        case BinaryOp::Multiply:
            return checkedInt(
                [](int64_t x, int64_t y, int64_t* r) { return __builtin_mul_overflow(x, y, r); }, a,
                b);
        case BinaryOp::Divide:
            if (b == 0) throw EvalError("ZeroDivisionError: division by zero");
            return Value::fromFloat(static_cast<double>(a) / static_cast<double>(b));
        case BinaryOp::FloorDivide: {
            if (b == 0) throw EvalError("ZeroDivisionError: integer division or modulo by zero");
            if (a == INT64_MIN && b == -1) integerOverflow();  // and C would trap
            const int64_t q = a / b;
            return Value::fromInt((a % b != 0) && ((a < 0) != (b < 0)) ? q - 1 : q);
        }
        case BinaryOp::Modulo: {
            if (b == 0) throw EvalError("ZeroDivisionError: integer division or modulo by zero");
            if (b == -1) return Value::fromInt(0);  // C traps on INT64_MIN % -1
            const int64_t m = a % b;
            return Value::fromInt(m != 0 && ((m < 0) != (b < 0)) ? m + b : m);
        }
        case BinaryOp::Power:
            return intPower(a, b);
    }
    return Value::null();
}

Value floatArithmetic(BinaryOp op, double a, double b) {
    switch (op) {
        case BinaryOp::Add:
            return Value::fromFloat(a + b);
        case BinaryOp::Subtract:
            return Value::fromFloat(a - b);
        case BinaryOp::Multiply:
            return Value::fromFloat(a * b);
        case BinaryOp::Divide:
            if (b == 0) throw EvalError("ZeroDivisionError: float division by zero");
            return Value::fromFloat(a / b);
        case BinaryOp::FloorDivide:
            if (b == 0) throw EvalError("ZeroDivisionError: float floor division by zero");
            return Value::fromFloat(std::floor(a / b));
        case BinaryOp::Modulo: {
            if (b == 0) throw EvalError("ZeroDivisionError: float modulo");
            const double m = std::fmod(a, b);
            return Value::fromFloat(m != 0 && ((m < 0) != (b < 0)) ? m + b : m);
        }
        case BinaryOp::Power:
            return floatPower(a, b);
    }
    return Value::null();
}

// Python's len() of what has one.
std::optional<size_t> lengthOf(const Value& v) {
    switch (v.type) {
        case ValueType::String:
            return characterCount(v.text);
        case ValueType::List:
        case ValueType::Tuple:
            return v.items->size();
        case ValueType::Dict:
            return v.entries->size();
        default:
            return std::nullopt;
    }
}

// simpleeval's safe_mult: no repetition past MAX_STRING_LENGTH.
Value repeat(const Value& sequence, int64_t times) {
    const size_t length = *lengthOf(sequence);
    if (times <= 0 || length == 0) {
        return sequence.type == ValueType::String ? Value::fromString("")
                                                  : Value::list({}, sequence.type);
    }
    checkResultLength(static_cast<double>(times) * static_cast<double>(length));
    const auto count = static_cast<size_t>(times);
    if (sequence.type == ValueType::String) {
        std::string out;
        out.reserve(sequence.text.size() * count);
        for (size_t i = 0; i < count; ++i) out += sequence.text;
        return Value::fromString(std::move(out));
    }
    ValueList items;
    items.reserve(length * count);
    for (size_t i = 0; i < count; ++i) {
        items.insert(items.end(), sequence.items->begin(), sequence.items->end());
    }
    return Value::list(std::move(items), sequence.type);
}

// simpleeval's safe_add: two operands that have a length may not add up past
// MAX_STRING_LENGTH, whatever their types (it checks before Python would).
void checkSum(const Value& a, const Value& b) {
    if (a.type == ValueType::String && b.type == ValueType::String &&
        a.text.size() + b.text.size() <= kMaxStringLength) {
        return;  // as many characters as bytes at most: no need to count them
    }
    const std::optional<size_t> left = lengthOf(a), right = lengthOf(b);
    if (left && right) checkResultLength(static_cast<double>(*left) + static_cast<double>(*right));
}

// + and * of strings, lists and tuples; nullopt when the operands are not such a pair.
std::optional<Value> sequenceArithmetic(BinaryOp op, const Value& a, const Value& b) {
    if (op == BinaryOp::Add) {
        checkSum(a, b);
        if (a.type == ValueType::String && b.type == ValueType::String) {
            return Value::fromString(a.text + b.text);
        }
        if (a.isSequence() && a.type == b.type) {
            ValueList items = *a.items;
            items.insert(items.end(), b.items->begin(), b.items->end());
            return Value::list(std::move(items), a.type);
        }
        if (a.type == ValueType::String && !b.isNull()) {
            typeError("can only concatenate str (not \"" + typeName(b) + "\") to str");
        }
    }
    if (op == BinaryOp::Multiply) {
        if ((a.type == ValueType::String || a.isSequence()) && b.isIntegral()) {
            return repeat(a, b.integral());
        }
        if ((b.type == ValueType::String || b.isSequence()) && a.isIntegral()) {
            return repeat(b, a.integral());
        }
    }
    if (op == BinaryOp::Modulo && a.type == ValueType::String) {
        typeError("string formatting with % is not supported");
    }
    return std::nullopt;
}

// The instant a datetime stands for, to compare and subtract aware ones across offsets.
int64_t instant(const Value& v) { return v.integer - v.offsetSeconds * kMicrosPerSecond; }

// datetime and timedelta arithmetic; nullopt when the operands are not such a pair.
std::optional<Value> timeArithmetic(BinaryOp op, const Value& a, const Value& b) {
    const bool additive = op == BinaryOp::Add || op == BinaryOp::Subtract;
    const bool aTime = a.type == ValueType::DateTime || a.type == ValueType::Date;
    if (aTime && b.type == ValueType::TimeDelta && additive) {
        Value result = a;
        const int64_t delta = op == BinaryOp::Add ? b.integer : -b.integer;
        if (__builtin_add_overflow(a.integer, delta, &result.integer)) {
            overflowError("date value out of range");
        }
        if (a.type == ValueType::Date) result.integer -= result.integer % kMicrosPerDay;
        return checkedDate(result);
    }
    if (a.type == ValueType::TimeDelta && b.type == ValueType::TimeDelta && additive) {
        const long double sign = op == BinaryOp::Add ? 1 : -1;
        return checkedTimeDelta(static_cast<long double>(a.integer) +
                                sign * static_cast<long double>(b.integer));
    }
    if (a.type == ValueType::TimeDelta && b.type == ValueType::DateTime && op == BinaryOp::Add) {
        return timeArithmetic(op, b, a);
    }
    if (aTime && a.type == b.type && op == BinaryOp::Subtract) {
        if (a.type == ValueType::DateTime && a.hasOffset != b.hasOffset) {
            typeError("can't subtract offset-naive and offset-aware datetimes");
        }
        return makeTimeDelta(instant(a) - instant(b));
    }
    return std::nullopt;
}

// -1, 0 or 1 as a is less, equal or greater; 2 when no order holds (NaN).
int order(const Value& a, const Value& b, const char* op);

int sequenceOrder(const Value& a, const Value& b, const char* op) {
    const size_t n = std::min(a.items->size(), b.items->size());
    for (size_t i = 0; i < n; ++i) {
        if (!equals((*a.items)[i], (*b.items)[i])) return order((*a.items)[i], (*b.items)[i], op);
    }
    return a.items->size() < b.items->size() ? -1 : a.items->size() > b.items->size();
}

int order(const Value& a, const Value& b, const char* op) {
    if (a.isNumber() && b.isNumber()) {
        if (a.isIntegral() && b.isIntegral()) {
            return a.integral() < b.integral() ? -1 : a.integral() > b.integral();
        }
        const double x = a.asDouble(), y = b.asDouble();
        if (std::isnan(x) || std::isnan(y)) return 2;
        return x < y ? -1 : x > y;
    }
    if (a.type == ValueType::String && b.type == ValueType::String) {
        const int c = a.text.compare(b.text);  // UTF-8 byte order is code point order
        return c < 0 ? -1 : c > 0;
    }
    const bool time = a.type == ValueType::DateTime || a.type == ValueType::Date ||
                      a.type == ValueType::TimeDelta;
    if (time && a.type == b.type) {
        if (a.type == ValueType::DateTime && a.hasOffset != b.hasOffset) {
            typeError("can't compare offset-naive and offset-aware datetimes");
        }
        return instant(a) < instant(b) ? -1 : instant(a) > instant(b);
    }
    if (a.isSequence() && a.type == b.type) return sequenceOrder(a, b, op);
    if (a.isNull() || b.isNull()) throw NullOperand{};
    typeError(std::string("'") + op + "' not supported between instances of '" + typeName(a) +
              "' and '" + typeName(b) + "'");
}

bool contains(const Value& container, const Value& item) {
    switch (container.type) {
        case ValueType::String:
            if (item.type != ValueType::String) {
                if (item.isNull()) throw NullOperand{};
                typeError("'in <string>' requires string as left operand, not " + typeName(item));
            }
            return container.text.find(item.text) != std::string::npos;
        case ValueType::List:
        case ValueType::Tuple:
            return std::any_of(container.items->begin(), container.items->end(),
                               [&](const Value& v) { return equals(v, item); });
        case ValueType::Dict:
            return std::any_of(container.entries->begin(), container.entries->end(),
                               [&](const auto& entry) { return equals(entry.first, item); });
        case ValueType::Null:
            throw NullOperand{};
        default:
            typeError("argument of type '" + typeName(container) + "' is not iterable");
    }
}

bool identical(const Value& a, const Value& b) {
    if (a.isNull() || b.isNull()) return a.isNull() && b.isNull();
    return a.type == b.type && equals(a, b);
}

// Index i of a sequence of `size`, Python style (negative from the end).
size_t sequenceIndex(const Value& index, size_t size, const char* what) {
    if (!index.isIntegral()) {
        if (index.isNull()) throw NullOperand{};
        typeError(std::string(what) + " indices must be integers or slices, not " +
                  typeName(index));
    }
    int64_t i = index.integral();
    if (i < 0) i += static_cast<int64_t>(size);
    if (i < 0 || i >= static_cast<int64_t>(size)) {
        throw EvalError(std::string("IndexError: ") + what + " index out of range");
    }
    return static_cast<size_t>(i);
}

std::optional<int64_t> sliceBound(const Value& v) {
    if (v.isNull()) return std::nullopt;
    if (!v.isIntegral()) typeError("slice indices must be integers or None");
    return v.integral();
}

// The positions a slice picks from a sequence of n, in order.
std::vector<size_t> slicePositions(int64_t n, const Value& startV, const Value& stopV,
                                   const Value& stepV) {
    const int64_t step = sliceBound(stepV).value_or(1);
    if (step == 0) valueError("slice step cannot be zero");
    auto clamp = [&](std::optional<int64_t> v, int64_t fallback) {
        if (!v) return fallback;
        const int64_t i = *v < 0 ? *v + n : *v;
        return step > 0 ? std::clamp<int64_t>(i, 0, n) : std::clamp<int64_t>(i, -1, n - 1);
    };
    const int64_t start = clamp(sliceBound(startV), step > 0 ? 0 : n - 1);
    const int64_t stop = clamp(sliceBound(stopV), step > 0 ? n : -1);
    std::vector<size_t> picked;
    for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) {
        picked.push_back(static_cast<size_t>(i));
    }
    return picked;
}

Value sliceString(const std::string& text, const Value& start, const Value& stop,
                  const Value& step) {
    std::string out;
    if (isAscii(text)) {
        for (size_t i : slicePositions(static_cast<int64_t>(text.size()), start, stop, step)) {
            out.push_back(text[i]);
        }
    } else {
        const auto characters = codePoints(text);
        for (size_t i :
             slicePositions(static_cast<int64_t>(characters.size()), start, stop, step)) {
            out += characters[i];
        }
    }
    return Value::fromString(std::move(out));
}

// simpleeval's safe_power: neither operand of ** above MAX_POWER.
void checkPower(const Value& a, const Value& b) {
    const bool tooHigh = a.isIntegral() ? a.integral() > kMaxPower || a.integral() < -kMaxPower
                                        : std::fabs(a.asDouble()) > kMaxPower;
    const bool exponentTooHigh = b.isIntegral()
                                     ? b.integral() > kMaxPower || b.integral() < -kMaxPower
                                     : std::fabs(b.asDouble()) > kMaxPower;
    if (!tooHigh && !exponentTooHigh) return;
    throw EvalError("NumberTooHigh: " + repr(a) + " ** " + repr(b) +
                    " is refused: an operand is over simpleeval's MAX_POWER of " +
                    std::to_string(static_cast<int64_t>(kMaxPower)));
}

}  // namespace

Value arithmetic(BinaryOp op, const Value& a, const Value& b) {
    if (a.isNumber() && b.isNumber()) {
        if (op == BinaryOp::Power) checkPower(a, b);
        if (a.isIntegral() && b.isIntegral()) return intArithmetic(op, a.integral(), b.integral());
        return floatArithmetic(op, a.asDouble(), b.asDouble());
    }
    if (auto result = sequenceArithmetic(op, a, b)) return std::move(*result);
    if (auto result = timeArithmetic(op, a, b)) return std::move(*result);
    unsupported(op, a, b);
}

Value signedValue(const Value& v, bool negate) {
    if (v.isIntegral()) {
        if (negate && v.integral() == INT64_MIN) integerOverflow();
        return Value::fromInt(negate ? -v.integral() : v.integral());
    }
    if (v.type == ValueType::Float) return Value::fromFloat(negate ? -v.number : v.number);
    if (v.type == ValueType::Decimal) {
        if (!negate) return v;
        return Value::fromDecimal(v.text[0] == '-' ? v.text.substr(1) : "-" + v.text);
    }
    if (v.type == ValueType::TimeDelta) return makeTimeDelta(negate ? -v.integer : v.integer);
    if (v.isNull()) throw NullOperand{};
    typeError(std::string("bad operand type for unary ") + (negate ? "-" : "+") + ": '" +
              typeName(v) + "'");
}

bool compare(CompareOp op, const Value& a, const Value& b) {
    switch (op) {
        case CompareOp::Equal:
            return equals(a, b);
        case CompareOp::NotEqual:
            return !equals(a, b);
        case CompareOp::Less:
            return order(a, b, "<") == -1;
        case CompareOp::LessEqual: {
            const int c = order(a, b, "<=");
            return c == -1 || c == 0;
        }
        case CompareOp::Greater:
            return order(a, b, ">") == 1;
        case CompareOp::GreaterEqual: {
            const int c = order(a, b, ">=");
            return c == 1 || c == 0;
        }
        case CompareOp::In:
            return contains(b, a);
        case CompareOp::NotIn:
            return !contains(b, a);
        case CompareOp::Is:
            return identical(a, b);
        case CompareOp::IsNot:
            return !identical(a, b);
    }
    return false;
}

Value slice(const Value& object, const Value& start, const Value& stop, const Value& step) {
    if (object.type == ValueType::String) return sliceString(object.text, start, stop, step);
    if (!object.isSequence()) {
        if (object.isNull()) throw NullOperand{};
        typeError("'" + typeName(object) + "' object is not subscriptable");
    }
    ValueList items;
    const auto n = static_cast<int64_t>(object.items->size());
    for (size_t i : slicePositions(n, start, stop, step)) items.push_back((*object.items)[i]);
    return Value::list(std::move(items), object.type);
}

Value subscript(const Value& object, const Value& index) {
    switch (object.type) {
        case ValueType::String: {
            if (isAscii(object.text)) {
                const size_t i = sequenceIndex(index, object.text.size(), "string");
                return Value::fromString(std::string(1, object.text[i]));
            }
            auto characters = codePoints(object.text);
            return Value::fromString(characters[sequenceIndex(index, characters.size(), "string")]);
        }
        case ValueType::List:
            return (*object.items)[sequenceIndex(index, object.items->size(), "list")];
        case ValueType::Tuple:
            return (*object.items)[sequenceIndex(index, object.items->size(), "tuple")];
        case ValueType::Dict:
            for (const auto& entry : *object.entries) {
                if (equals(entry.first, index)) return entry.second;
            }
            throw EvalError("KeyError: " + repr(index));
        case ValueType::Null:
            throw NullOperand{};
        default:
            typeError("'" + typeName(object) + "' object is not subscriptable");
    }
}

}  // namespace tapdiffgen::core::maps

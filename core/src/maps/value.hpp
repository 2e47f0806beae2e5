// The values stream-map expressions compute with: the JSON types Python sees in a record, plus
// an exact decimal (a database NUMERIC keeps its digits when passed through) and the datetime
// types of Python's datetime module.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tapdiffgen::core::maps {

enum class ValueType {
    Null,
    Bool,
    Int,
    Float,
    Decimal,
    String,
    List,
    Tuple,
    Dict,
    DateTime,
    Date,
    TimeDelta
};

struct Value;
using ValueList = std::vector<Value>;
using ValueDict = std::vector<std::pair<Value, Value>>;  // insertion order, as Python's dict

struct Value {
    ValueType type = ValueType::Null;
    bool boolean = false;
    int64_t integer = 0;  // Int; microseconds for DateTime (wall clock), Date (midnight), TimeDelta
    double number = 0;
    std::string text;  // String; Decimal digits as the database wrote them
    std::shared_ptr<ValueList> items;
    std::shared_ptr<ValueDict> entries;
    bool hasOffset = false;  // DateTime: aware (has a UTC offset) or naive
    int32_t offsetSeconds = 0;

    static Value null() { return {}; }
    static Value fromBool(bool b);
    static Value fromInt(int64_t i);
    static Value fromFloat(double d);
    static Value fromDecimal(std::string digits);
    static Value fromString(std::string s);
    static Value list(ValueList items, ValueType type = ValueType::List);
    static Value dict(ValueDict entries);

    bool isNull() const { return type == ValueType::Null; }
    bool isNumber() const {
        return type == ValueType::Int || type == ValueType::Float || type == ValueType::Decimal ||
               type == ValueType::Bool;
    }
    /// int or bool: Python's bool is an int.
    bool isIntegral() const { return type == ValueType::Int || type == ValueType::Bool; }
    /// An int or bool as an integer.
    int64_t integral() const { return type == ValueType::Bool ? boolean : integer; }
    bool isSequence() const { return type == ValueType::List || type == ValueType::Tuple; }
    /// A number as a double (a decimal as Python's float of it, as the SDK reads JSON).
    double asDouble() const;
};

/// A Python TypeError, ValueError, ...; what() is Python's message.
class EvalError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Throw EvalError with what() as Python prints the error: "TypeError: message".
[[noreturn]] void typeError(const std::string& message);
[[noreturn]] void valueError(const std::string& message);
[[noreturn]] void overflowError(const std::string& message);

/// Python would reject the operation because an operand is None.
struct NullOperand {};

/// Python's name of the type: 'int', 'str', 'NoneType', ...
std::string typeName(const Value& value);
bool truthy(const Value& value);
bool equals(const Value& left, const Value& right);
/// Python's repr() and str().
std::string repr(const Value& value);
std::string str(const Value& value);

}  // namespace tapdiffgen::core::maps

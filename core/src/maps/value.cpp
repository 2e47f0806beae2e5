#include "maps/value.hpp"

#include <cmath>
#include <cstdlib>

#include "maps/datetime.hpp"
#include "util/json_value.hpp"

namespace tapdiffgen::core::maps {

Value Value::fromBool(bool b) {
    Value v;
    v.type = ValueType::Bool;
    v.boolean = b;
    return v;
}

Value Value::fromInt(int64_t i) {
    Value v;
    v.type = ValueType::Int;
    v.integer = i;
    return v;
}

Value Value::fromFloat(double d) {
    Value v;
    v.type = ValueType::Float;
    v.number = d;
    return v;
}

Value Value::fromDecimal(std::string digits) {
    Value v;
    v.type = ValueType::Decimal;
    v.text = std::move(digits);
    return v;
}

Value Value::fromString(std::string s) {
    Value v;
    v.type = ValueType::String;
    v.text = std::move(s);
    return v;
}

Value Value::list(ValueList items, ValueType type) {
    Value v;
    v.type = type;
    v.items = std::make_shared<ValueList>(std::move(items));
    return v;
}

Value Value::dict(ValueDict entries) {
    Value v;
    v.type = ValueType::Dict;
    v.entries = std::make_shared<ValueDict>(std::move(entries));
    return v;
}

double Value::asDouble() const {
    switch (type) {
        case ValueType::Bool:
            return boolean ? 1 : 0;
        case ValueType::Int:
            return static_cast<double>(integer);
        case ValueType::Float:
            return number;
        case ValueType::Decimal:
            return std::strtod(text.c_str(), nullptr);
        default:
            return 0;
    }
}

void typeError(const std::string& message) { throw EvalError("TypeError: " + message); }
void valueError(const std::string& message) { throw EvalError("ValueError: " + message); }
void overflowError(const std::string& message) { throw EvalError("OverflowError: " + message); }

std::string typeName(const Value& value) {
    switch (value.type) {
        case ValueType::Null:
            return "NoneType";
        case ValueType::Bool:
            return "bool";
        case ValueType::Int:
            return "int";
        case ValueType::Float:
        case ValueType::Decimal:
            return "float";
        case ValueType::String:
            return "str";
        case ValueType::List:
            return "list";
        case ValueType::Tuple:
            return "tuple";
        case ValueType::Dict:
            return "dict";
        case ValueType::DateTime:
            return "datetime.datetime";
        case ValueType::Date:
            return "datetime.date";
        case ValueType::TimeDelta:
            return "datetime.timedelta";
    }
    return "object";
}

bool truthy(const Value& value) {
    switch (value.type) {
        case ValueType::Null:
            return false;
        case ValueType::Bool:
            return value.boolean;
        case ValueType::Int:
            return value.integer != 0;
        case ValueType::Float:
        case ValueType::Decimal:
            return value.asDouble() != 0;
        case ValueType::String:
            return !value.text.empty();
        case ValueType::List:
        case ValueType::Tuple:
            return !value.items->empty();
        case ValueType::Dict:
            return !value.entries->empty();
        case ValueType::TimeDelta:
            return value.integer != 0;
        default:
            return true;
    }
}

bool equals(const Value& left, const Value& right) {
    if (left.isNumber() && right.isNumber()) {
        if (left.type != ValueType::Float && left.type != ValueType::Decimal &&
            right.type != ValueType::Float && right.type != ValueType::Decimal) {
            const int64_t a = left.type == ValueType::Bool ? left.boolean : left.integer;
            const int64_t b = right.type == ValueType::Bool ? right.boolean : right.integer;
            return a == b;
        }
        return left.asDouble() == right.asDouble();
    }
    const bool sequences = (left.type == ValueType::List && right.type == ValueType::List) ||
                           (left.type == ValueType::Tuple && right.type == ValueType::Tuple);
    if (sequences) {
        if (left.items->size() != right.items->size()) return false;
        for (size_t i = 0; i < left.items->size(); ++i) {
            if (!equals((*left.items)[i], (*right.items)[i])) return false;
        }
        return true;
    }
    if (left.type != right.type) return false;
    switch (left.type) {
        case ValueType::Null:
            return true;
        case ValueType::String:
            return left.text == right.text;
        case ValueType::Dict: {
            if (left.entries->size() != right.entries->size()) return false;
            for (const auto& [key, value] : *left.entries) {
                bool found = false;
                for (const auto& [otherKey, otherValue] : *right.entries) {
                    if (equals(key, otherKey)) {
                        found = equals(value, otherValue);
                        break;
                    }
                }
                if (!found) return false;
            }
            return true;
        }
        case ValueType::DateTime:
            return left.integer - left.offsetSeconds * kMicrosPerSecond ==
                       right.integer - right.offsetSeconds * kMicrosPerSecond &&
                   left.hasOffset == right.hasOffset;
        default:
            return left.integer == right.integer;
    }
}

namespace {

std::string sequenceRepr(const Value& value, const char* open, const char* close) {
    std::string out = open;
    for (size_t i = 0; i < value.items->size(); ++i) {
        if (i > 0) out += ", ";
        out += repr((*value.items)[i]);
    }
    if (value.type == ValueType::Tuple && value.items->size() == 1) out += ",";
    return out + close;
}

}  // namespace

std::string repr(const Value& value) {
    switch (value.type) {
        case ValueType::Null:
            return "None";
        case ValueType::Bool:
            return value.boolean ? "True" : "False";
        case ValueType::Int:
            return std::to_string(value.integer);
        case ValueType::Float:
        case ValueType::Decimal: {
            const double d = value.asDouble();
            if (std::isnan(d)) return "nan";
            if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
            return jsonvalue::formatDouble(d);
        }
        case ValueType::String:
            return jsonvalue::pythonRepr(value.text, SIZE_MAX);
        case ValueType::List:
            return sequenceRepr(value, "[", "]");
        case ValueType::Tuple:
            return sequenceRepr(value, "(", ")");
        case ValueType::Dict: {
            std::string out = "{";
            for (size_t i = 0; i < value.entries->size(); ++i) {
                if (i > 0) out += ", ";
                out += repr((*value.entries)[i].first) + ": " + repr((*value.entries)[i].second);
            }
            return out + "}";
        }
        case ValueType::DateTime:
        case ValueType::Date:
        case ValueType::TimeDelta:
            return str(value);
    }
    return "";
}

std::string str(const Value& value) {
    switch (value.type) {
        case ValueType::String:
            return value.text;
        case ValueType::DateTime:
        case ValueType::Date:
            return dateTimeText(value, ' ');
        case ValueType::TimeDelta:
            return timeDeltaText(value);
        default:
            return repr(value);
    }
}

}  // namespace tapdiffgen::core::maps

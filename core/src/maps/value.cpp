#include "maps/value.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "config/json_value.hpp"
#include "maps/datetime.hpp"
#include "singer/json_text.hpp"

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

void appendSequenceJson(std::string& out, const ValueList& items) {
    out.push_back('[');
    for (size_t i = 0; i < items.size(); ++i) {
        if (i > 0) out.push_back(',');
        appendValueJson(out, items[i]);
    }
    out.push_back(']');
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

// Python's repr() of a float, written straight into `out`: the shortest digits that read back
// the same, in positional notation for 1e-4 <= |x| < 1e16 as Python writes it.
void appendFloatJson(std::string& out, double d) {
    if (!std::isfinite(d)) {
        out += "null";
        return;
    }
    const double magnitude = std::fabs(d);
    if (magnitude != 0 && (magnitude < 1e-4 || magnitude >= 1e16)) {
        out += jsonvalue::formatDouble(d);
        return;
    }
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, d, std::chars_format::fixed);
    const std::string_view digits(buffer, static_cast<size_t>(result.ptr - buffer));
    out += digits;
    if (digits.find('.') == std::string_view::npos) out += ".0";
}

void appendValueJson(std::string& out, const Value& value) {
    switch (value.type) {
        case ValueType::Null:
            out += "null";
            return;
        case ValueType::Bool:
            out += value.boolean ? "true" : "false";
            return;
        case ValueType::Int:
            appendInt64(out, value.integer);
            return;
        case ValueType::Float:
            appendFloatJson(out, value.number);
            return;
        case ValueType::Decimal:
            out += value.text;
            return;
        case ValueType::String:
            appendJsonString(out, value.text);
            return;
        case ValueType::List:
        case ValueType::Tuple:
            appendSequenceJson(out, *value.items);
            return;
        case ValueType::Dict: {
            out.push_back('{');
            for (size_t i = 0; i < value.entries->size(); ++i) {
                if (i > 0) out.push_back(',');
                const Value& key = (*value.entries)[i].first;
                // json.dumps writes non-string keys as their JSON text.
                if (key.type == ValueType::String) {
                    appendJsonString(out, key.text);
                } else {
                    std::string keyText;
                    appendValueJson(keyText, key);
                    appendJsonString(out, keyText);
                }
                out.push_back(':');
                appendValueJson(out, (*value.entries)[i].second);
            }
            out.push_back('}');
            return;
        }
        default:
            // The SDK's writer serialises what JSON has no type for with str().
            appendJsonString(out, str(value));
            return;
    }
}

namespace {

class JsonReader {
public:
    explicit JsonReader(std::string_view text) : text_(text) {}

    Value document() {
        Value v = value();
        skipSpace();
        if (at_ != text_.size()) fail();
        return v;
    }

private:
    std::string_view text_;
    size_t at_ = 0;

    [[noreturn]] void fail() const { throw EvalError("invalid JSON value in the record"); }

    void skipSpace() {
        while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\n' ||
                                      text_[at_] == '\t' || text_[at_] == '\r'))
            ++at_;
    }

    bool literal(std::string_view word) {
        if (text_.substr(at_, word.size()) != word) return false;
        at_ += word.size();
        return true;
    }

    Value value() {
        skipSpace();
        if (at_ >= text_.size()) fail();
        const char c = text_[at_];
        if (c == '{') return object();
        if (c == '[') return array();
        if (c == '"') return Value::fromString(string());
        if (literal("true")) return Value::fromBool(true);
        if (literal("false")) return Value::fromBool(false);
        if (literal("null")) return Value::null();
        return number();
    }

    Value number() {
        const size_t start = at_;
        bool integral = true;
        if (at_ < text_.size() && text_[at_] == '-') ++at_;
        while (at_ < text_.size()) {
            const char c = text_[at_];
            if (c >= '0' && c <= '9') {
                ++at_;
            } else if (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
                integral = false;
                ++at_;
            } else {
                break;
            }
        }
        if (at_ == start) fail();
        std::string digits(text_.substr(start, at_ - start));
        if (integral) {
            errno = 0;
            char* end = nullptr;
            long long parsed = std::strtoll(digits.c_str(), &end, 10);
            if (errno == 0 && *end == '\0') return Value::fromInt(parsed);
        }
        return Value::fromDecimal(std::move(digits));
    }

    uint32_t hex4() {
        if (at_ + 4 > text_.size()) fail();
        uint32_t cp = 0;
        for (int i = 0; i < 4; ++i) {
            const char h = text_[at_++];
            cp <<= 4;
            if (h >= '0' && h <= '9')
                cp |= h - '0';
            else if (h >= 'a' && h <= 'f')
                cp |= h - 'a' + 10;
            else if (h >= 'A' && h <= 'F')
                cp |= h - 'A' + 10;
            else
                fail();
        }
        return cp;
    }

    std::string string() {
        ++at_;
        std::string out;
        while (at_ < text_.size() && text_[at_] != '"') {
            char c = text_[at_++];
            if (c != '\\') {
                out.push_back(c);
                continue;
            }
            if (at_ >= text_.size()) fail();
            c = text_[at_++];
            switch (c) {
                case 'n':
                    out.push_back('\n');
                    break;
                case 't':
                    out.push_back('\t');
                    break;
                case 'r':
                    out.push_back('\r');
                    break;
                case 'b':
                    out.push_back('\b');
                    break;
                case 'f':
                    out.push_back('\f');
                    break;
                case 'u': {
                    uint32_t cp = hex4();
                    if (cp >= 0xD800 && cp < 0xDC00 && literal("\\u")) {
                        const uint32_t low = hex4();
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                    }
                    appendUtf8(out, cp);
                    break;
                }
                default:
                    out.push_back(c);
            }
        }
        if (at_ >= text_.size()) fail();
        ++at_;
        return out;
    }

    Value array() {
        ++at_;
        ValueList items;
        skipSpace();
        if (at_ < text_.size() && text_[at_] == ']') {
            ++at_;
            return Value::list(std::move(items));
        }
        for (;;) {
            items.push_back(value());
            skipSpace();
            if (at_ < text_.size() && text_[at_] == ',') {
                ++at_;
                continue;
            }
            if (at_ < text_.size() && text_[at_] == ']') {
                ++at_;
                return Value::list(std::move(items));
            }
            fail();
        }
    }

    Value object() {
        ++at_;
        ValueDict entries;
        skipSpace();
        if (at_ < text_.size() && text_[at_] == '}') {
            ++at_;
            return Value::dict(std::move(entries));
        }
        for (;;) {
            skipSpace();
            if (at_ >= text_.size() || text_[at_] != '"') fail();
            Value key = Value::fromString(string());
            skipSpace();
            if (at_ >= text_.size() || text_[at_] != ':') fail();
            ++at_;
            Value item = value();
            bool replaced = false;
            for (auto& entry : entries) {
                if (entry.first.text == key.text) {
                    entry.second = item;
                    replaced = true;
                }
            }
            if (!replaced) entries.emplace_back(std::move(key), std::move(item));
            skipSpace();
            if (at_ < text_.size() && text_[at_] == ',') {
                ++at_;
                continue;
            }
            if (at_ < text_.size() && text_[at_] == '}') {
                ++at_;
                return Value::dict(std::move(entries));
            }
            fail();
        }
    }
};

}  // namespace

Value parseJsonValue(std::string_view text) { return JsonReader(text).document(); }

}  // namespace tapdiffgen::core::maps

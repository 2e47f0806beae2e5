#include "maps/value_json.hpp"

#include <Poco/Exception.h>
#include <Poco/JSON/Handler.h>
#include <Poco/JSON/Parser.h>

#include <charconv>
#include <cmath>
#include <limits>

#include "maps/limits.hpp"
#include "singer/json_text.hpp"
#include "util/json_value.hpp"

namespace tapdiffgen::core::maps {
namespace {

// Builds the value while Poco's parser reads the text, with no document tree in between. The
// containers being filled wait on a stack, so a deep document costs no recursion here.
class ValueBuilder : public Poco::JSON::Handler {
public:
    Value result;

    void reset() override {
        open_.clear();
        result = Value::null();
    }
    void startObject() override { open_.push_back({Value::dict({}), {}}); }
    void startArray() override { open_.push_back({Value::list({}), {}}); }
    void endObject() override { close(); }
    void endArray() override { close(); }
    void key(const std::string& name) override { open_.back().key = name; }
    void null() override { add(Value::null()); }
    void value(bool b) override { add(Value::fromBool(b)); }
    void value(int i) override { add(Value::fromInt(i)); }
    void value(unsigned i) override { add(Value::fromInt(i)); }
    void value(Poco::Int64 i) override { add(Value::fromInt(i)); }
    void value(Poco::UInt64 i) override {
        // Past int64: Python's int keeps every digit, as a decimal does here.
        if (i <= static_cast<Poco::UInt64>(std::numeric_limits<int64_t>::max())) {
            add(Value::fromInt(static_cast<int64_t>(i)));
        } else {
            add(Value::fromDecimal(std::to_string(i)));
        }
    }
    void value(double d) override { add(Value::fromFloat(d)); }
    void value(const std::string& s) override { add(Value::fromString(s)); }

private:
    struct Open {
        Value container;
        std::string key;  // an object's member whose value comes next
    };
    std::vector<Open> open_;

    void close() {
        Value done = std::move(open_.back().container);
        open_.pop_back();
        add(std::move(done));
    }

    void add(Value value) {
        if (open_.empty()) {
            result = std::move(value);
            return;
        }
        Open& parent = open_.back();
        if (parent.container.type != ValueType::Dict) {
            parent.container.items->push_back(std::move(value));
            return;
        }
        for (auto& entry : *parent.container.entries) {
            if (entry.first.text == parent.key) {
                entry.second = std::move(value);
                return;
            }
        }
        parent.container.entries->emplace_back(Value::fromString(parent.key), std::move(value));
    }
};

void appendString(std::string& out, const std::string& text, JsonLayout layout) {
    if (layout == JsonLayout::Record) {
        appendJsonString(out, text);
    } else {
        out += jsonvalue::quote(text);
    }
}

void appendNumber(std::string& out, const Value& value, JsonLayout layout) {
    if (value.type == ValueType::Decimal && layout == JsonLayout::Record) {
        out += value.text;
        return;
    }
    const double d = value.asDouble();
    if (std::isfinite(d)) {
        appendFloatRepr(out, d);
    } else if (layout == JsonLayout::Record) {
        out += "null";
    } else {
        out += std::isnan(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity";
    }
}

void appendItems(std::string& out, const ValueList& items, JsonLayout layout) {
    out.push_back('[');
    for (size_t i = 0; i < items.size(); ++i) {
        if (i > 0) out += layout == JsonLayout::Record ? "," : ", ";
        appendJson(out, items[i], layout);
    }
    out.push_back(']');
}

void appendEntries(std::string& out, const ValueDict& entries, JsonLayout layout) {
    out.push_back('{');
    for (size_t i = 0; i < entries.size(); ++i) {
        if (i > 0) out += layout == JsonLayout::Record ? "," : ", ";
        const Value& key = entries[i].first;
        if (key.type == ValueType::String) {
            appendString(out, key.text, layout);
        } else {
            // json.dumps writes a key that is not a string as its own JSON text.
            std::string keyText;
            appendJson(keyText, key, layout);
            appendString(out, keyText, layout);
        }
        out += layout == JsonLayout::Record ? ":" : ": ";
        appendJson(out, entries[i].second, layout);
    }
    out.push_back('}');
}

}  // namespace

// Python's repr() of a float: the shortest digits that read back the same, in positional
// notation for 1e-4 <= |x| < 1e16 as Python writes it. The common case goes straight into `out`.
void appendFloatRepr(std::string& out, double d) {
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

void appendJson(std::string& out, const Value& value, JsonLayout layout) {
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
        case ValueType::Decimal:
            appendNumber(out, value, layout);
            return;
        case ValueType::String:
            appendString(out, value.text, layout);
            return;
        case ValueType::List:
        case ValueType::Tuple:
            appendItems(out, *value.items, layout);
            return;
        case ValueType::Dict:
            appendEntries(out, *value.entries, layout);
            return;
        default:
            // The SDK's writer serialises what JSON has no type for with str().
            appendString(out, str(value), layout);
            return;
    }
}

Value parseJsonValue(std::string_view text) {
    Poco::SharedPtr<ValueBuilder> builder = new ValueBuilder;
    Poco::JSON::Parser parser(builder);
    parser.setDepth(kMaxJsonDepth);
    try {
        parser.parse(std::string(text));
    } catch (const Poco::Exception&) {
        throw EvalError("invalid JSON value in the record");
    }
    return std::move(builder->result);
}

Value valueFromJson(const Poco::Dynamic::Var& json) {
    return json.isEmpty() ? Value::null() : parseJsonValue(jsonvalue::write(json));
}

}  // namespace tapdiffgen::core::maps

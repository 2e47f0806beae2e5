// The expression tests' record and their ways of running an expression on it: its JSON, the
// error Python would raise, or the error compiling it gives.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "maps/expression.hpp"
#include "maps/value_json.hpp"

namespace tapdiffgen::testing {

using namespace tapdiffgen::core::maps;

struct TestRecord : RecordSource {
    std::vector<std::string> names;
    std::vector<Value> values;
    Value whole;

    const Value& property(size_t slot) override { return values[slot]; }
    const Value& record() override {
        ValueDict entries;
        for (size_t i = 0; i < names.size(); ++i)
            entries.emplace_back(Value::fromString(names[i]), values[i]);
        whole = Value::dict(entries);
        return whole;
    }
};

inline TestRecord sampleRecord() {
    TestRecord r;
    r.names = {"id", "name", "email", "amount", "qty", "note", "doc", "vip", "class"};
    r.values = {Value::fromInt(7),
                Value::fromString("Ada Lovelace"),
                Value::fromString("Ada@Example.COM"),
                Value::fromDecimal("1250.00"),
                Value::fromInt(3),
                Value::null(),
                parseJsonValue(R"({"a":{"b":1},"tags":["x","y"],"t":"x"})"),
                Value::fromBool(true),
                Value::fromString("gold")};
    return r;
}

inline Scope scopeOf(const TestRecord& r, std::optional<size_t> self = std::nullopt) {
    Scope scope;
    scope.properties = r.names;
    scope.selfSlot = self;
    scope.config = parseJsonValue(R"({"salt":"s1","limit":100})");
    return scope;
}

inline std::string repeated(const std::string& part, size_t times) {
    std::string out;
    for (size_t i = 0; i < times; ++i) out += part;
    return out;
}

// The JSON the tap would write for the expression's value on the sample record.
inline std::string eval(const std::string& text, std::optional<size_t> self = std::nullopt) {
    TestRecord r = sampleRecord();
    Expression e = Expression::compile(text, scopeOf(r, self));
    std::string out;
    appendJson(out, e.evaluate(r), JsonLayout::Record);
    return out;
}

// The error Python raises evaluating the expression on the sample record. An expression that
// reads no record raises it when it is compiled already.
inline std::string evalError(const std::string& text) {
    TestRecord r = sampleRecord();
    try {
        Expression::compile(text, scopeOf(r)).evaluate(r);
    } catch (const EvalError& error) {
        return error.what();
    } catch (const ExpressionError& error) {
        return error.what();
    }
    return "(no error)";
}

inline std::string compileError(const std::string& text) {
    TestRecord r = sampleRecord();
    try {
        Expression::compile(text, scopeOf(r));
    } catch (const ExpressionError& error) {
        return error.what();
    }
    return "(compiled)";
}
}  // namespace tapdiffgen::testing

// Expression values read from JSON text (through Poco's parser) and written back, in the two
// layouts: a RECORD's and Python's json.dumps.
#include <doctest/doctest.h>

#include <limits>

#include "maps/limits.hpp"
#include "maps/value_json.hpp"

using namespace tapdiffgen::core::maps;

namespace {

std::string written(const Value& value, JsonLayout layout = JsonLayout::Record) {
    std::string out;
    appendJson(out, value, layout);
    return out;
}

std::string readError(const std::string& text) {
    try {
        parseJsonValue(text);
    } catch (const EvalError& e) {
        return e.what();
    }
    return "(read)";
}

}  // namespace

TEST_CASE("JSON reads as Python's json.loads reads it") {
    CHECK(written(parseJsonValue(R"({"b":1,"a":[true,null,"x"],"b":2})")) ==
          R"({"b":2,"a":[true,null,"x"]})");
    CHECK(typeName(parseJsonValue("12")) == "int");
    CHECK(typeName(parseJsonValue("1.50")) == "float");
    CHECK(written(parseJsonValue("1.50")) == "1.5");
    CHECK(written(parseJsonValue("12345678901234567890")) == "12345678901234567890");
    CHECK(written(parseJsonValue(R"("caf\u00e9 \ud83d\ude00 \u0000")")) ==
          "\"caf\xC3\xA9 \xF0\x9F\x98\x80 \\u0000\"");
    CHECK(written(parseJsonValue(R"( "bare" )")) == R"("bare")");
}

TEST_CASE("text that is not JSON, or nests too deep, is refused") {
    CHECK(readError("{\"a\":") == "invalid JSON value in the record");
    CHECK(readError("[1,]") == "invalid JSON value in the record");
    CHECK(readError("nan") == "invalid JSON value in the record");
    const std::string deep(kMaxJsonDepth + 1, '[');
    CHECK(readError(deep + std::string(kMaxJsonDepth + 1, ']')) ==
          "invalid JSON value in the record");
    const std::string deepest(kMaxJsonDepth, '[');
    CHECK(written(parseJsonValue(deepest + std::string(kMaxJsonDepth, ']'))).size() ==
          2 * kMaxJsonDepth);
}

TEST_CASE("the two layouts differ in spacing, escapes, decimals and non-finite numbers") {
    const Value value = Value::list({Value::fromDecimal("1.50"), Value::fromString("é"),
                                     Value::fromFloat(0.1), Value::fromInt(-3)});
    CHECK(written(value) == "[1.50,\"\xC3\xA9\",0.1,-3]");
    CHECK(written(value, JsonLayout::PythonDumps) == R"([1.5, "\u00e9", 0.1, -3])");
    const Value nan = Value::fromFloat(std::numeric_limits<double>::quiet_NaN());
    CHECK(written(nan) == "null");
    CHECK(written(nan, JsonLayout::PythonDumps) == "NaN");
    CHECK(written(Value::fromFloat(-std::numeric_limits<double>::infinity()),
                  JsonLayout::PythonDumps) == "-Infinity");
    const Value keyed = Value::dict({{Value::fromInt(1), Value::fromFloat(1e16)}});
    CHECK(written(keyed) == R"({"1":1e+16})");
    CHECK(written(keyed, JsonLayout::PythonDumps) == R"({"1": 1e+16})");
}

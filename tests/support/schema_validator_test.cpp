// The validator the end-to-end tests judge the tap's records with: it must refuse what a
// validating target refuses, or those tests would pass anything.
#include <doctest/doctest.h>

#include <stdexcept>

#include "support/schema_validator.hpp"

using tapdiffgen::testing::ExactJson;
using tapdiffgen::testing::outputViolations;
using tapdiffgen::testing::schemaViolations;

namespace {

bool valid(const std::string& schema, const std::string& instance) {
    const auto problems = schemaViolations(ExactJson::parse(schema), ExactJson::parse(instance));
    for (const auto& problem : problems) MESSAGE(problem);
    return problems.empty();
}

bool isA(const std::string& format, const std::string& text) {
    return valid(R"({"type":"string","format":")" + format + "\"}", "\"" + text + "\"");
}

}  // namespace

TEST_CASE("schema validator: types, null only where the type allows it") {
    CHECK(valid(R"({"type":"integer"})", "-9223372036854775808"));
    CHECK(valid(R"({"type":"integer"})", "2.000"));
    CHECK_FALSE(valid(R"({"type":"integer"})", "2.5"));
    CHECK_FALSE(valid(R"({"type":"integer"})", "\"2\""));
    CHECK_FALSE(valid(R"({"type":"integer"})", "null"));
    CHECK(valid(R"({"type":["integer","null"]})", "null"));
    CHECK(valid(R"({"type":"number"})", "1e-07"));
    CHECK_FALSE(valid(R"({"type":"number"})", "true"));
    CHECK(valid(R"({"type":"boolean"})", "false"));
    CHECK_FALSE(valid(R"({"type":"string"})", "1"));
    CHECK(valid(R"({"type":["array","null"]})", "[]"));
    CHECK_FALSE(valid(R"({"type":"object"})", "[]"));
    CHECK(valid("{}", R"({"any":[1,"thing"]})"));
}

TEST_CASE("schema validator: date is a calendar day of years 0000 to 9999") {
    CHECK(isA("date", "2024-02-29"));
    CHECK(isA("date", "0001-01-01"));
    CHECK(isA("date", "9999-12-31"));
    CHECK_FALSE(isA("date", "2023-02-29"));
    CHECK_FALSE(isA("date", "1900-02-29"));
    CHECK_FALSE(isA("date", "10000-01-01"));
    CHECK_FALSE(isA("date", "2024-13-01"));
    CHECK_FALSE(isA("date", "2024-04-31"));
    CHECK_FALSE(isA("date", "2024-1-01"));
    CHECK_FALSE(isA("date", "2024-01-01T00:00:00Z"));
}

TEST_CASE("schema validator: date-time needs its offset and a clock below 24:00") {
    CHECK(isA("date-time", "2024-02-29T13:14:15.123456+00:00"));
    CHECK(isA("date-time", "0001-01-01T00:00:00Z"));
    CHECK(isA("date-time", "9999-12-31T23:59:59.999999-03:30"));
    CHECK_FALSE(isA("date-time", "10000-01-01T00:00:00.000000+00:00"));
    CHECK_FALSE(isA("date-time", "2024-02-29T13:14:15.123456"));
    CHECK_FALSE(isA("date-time", "2024-02-29T24:00:00+00:00"));
    CHECK_FALSE(isA("date-time", "2024-02-29 13:14:15+00:00"));
    CHECK_FALSE(isA("date-time", "2024-02-29T13:14:15+24:00"));
    CHECK_FALSE(isA("date-time", "2024-02-29T13:14:60+00:00"));
    CHECK_FALSE(isA("date-time", "2024-02-29T13:14:15.+00:00"));
}

TEST_CASE("schema validator: time is RFC 3339's full-time, a time of day with its offset") {
    CHECK(isA("time", "13:14:15.5+02:00"));
    CHECK(isA("time", "00:00:00Z"));
    CHECK_FALSE(isA("time", "13:14:15.500000"));
    CHECK_FALSE(isA("time", "00:00:00"));
    CHECK(isA("time", "23:59:59.999999-03:30"));
    CHECK_FALSE(isA("time", "24:00:00.000000"));
    CHECK_FALSE(isA("time", "24:00:00+00:00"));
    CHECK_FALSE(isA("time", "-838:59:59.000000"));
    CHECK_FALSE(isA("time", "838:59:59.000000"));
    CHECK_FALSE(isA("time", "13:60:00"));
    CHECK_FALSE(isA("time", "13:14"));
    CHECK_FALSE(isA("time", "13:14:15+2"));
}

TEST_CASE("schema validator: uuid, and formats apply to strings only") {
    CHECK(isA("uuid", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"));
    CHECK(isA("uuid", "A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11"));
    CHECK_FALSE(isA("uuid", "a0eebc999c0b4ef8bb6d6bb9bd380a11"));
    CHECK_FALSE(isA("uuid", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1g"));
    CHECK(valid(R"({"type":["string","null"],"format":"date"})", "null"));
    CHECK_THROWS_AS(isA("email", "a@b.c"), std::invalid_argument);
}

TEST_CASE("schema validator: multipleOf decides on the digits as written") {
    CHECK(valid(R"({"type":"number","multipleOf":0.01})", "1.50"));
    CHECK(valid(R"({"type":"number","multipleOf":0.01})", "1.2300"));
    CHECK(valid(R"({"type":"number","multipleOf":0.01})", "10"));
    CHECK_FALSE(valid(R"({"type":"number","multipleOf":0.01})", "1.234"));
    CHECK_FALSE(valid(R"({"type":"number","multipleOf":0.01})", "1e-3"));
    CHECK(valid(R"({"type":"number","multipleOf":0.00000001})",
                "999999999999999999999999999999.99999999"));
    CHECK_FALSE(valid(R"({"type":"number","multipleOf":0.00000001})",
                      "999999999999999999999999999999.999999991"));
    CHECK(valid(R"({"type":"number","multipleOf":1})", "2.0"));
    CHECK_FALSE(valid(R"({"type":"number","multipleOf":1})", "2.5"));
    CHECK_THROWS_AS(valid(R"({"type":"number","multipleOf":0.5})", "1"), std::invalid_argument);
}

TEST_CASE("schema validator: items, anyOf, required and properties reach every value") {
    CHECK(valid(R"({"type":"array","items":{"type":["integer","null"]}})", "[1,null,3]"));
    CHECK_FALSE(valid(R"({"type":"array","items":{"type":["integer","null"]}})", R"([1,"2"])"));
    CHECK_FALSE(valid(R"({"type":"array","items":{"type":"array","items":{"type":"string"}}})",
                      R"([["a"],["b",1]])"));
    CHECK(valid(R"({"anyOf":[{"type":"string","format":"date"},{"type":"null"}]})", "null"));
    CHECK_FALSE(valid(R"({"anyOf":[{"type":"string","format":"date"},{"type":"null"}]})",
                      R"("2024-02-30")"));
    const std::string record =
        R"({"type":"object","properties":{"id":{"type":"integer"},"a":{"type":["string","null"]}},"required":["id"]})";
    CHECK(valid(record, R"({"id":1,"a":null})"));
    CHECK_FALSE(valid(record, R"({"a":"x"})"));
    CHECK_FALSE(valid(record, R"({"id":1,"a":5})"));
    // A keyword it does not know is a violation, so nothing passes unchecked.
    CHECK_FALSE(valid(R"({"type":"string","pattern":"^a"})", R"("ab")"));
}

TEST_CASE("schema validator: maxLength counts characters, annotations constrain nothing") {
    CHECK(valid(R"({"type":"string","maxLength":3})", R"("ab")"));
    CHECK(valid(R"({"type":"string","maxLength":4})", R"("caf\u00e9")"));
    CHECK_FALSE(valid(R"({"type":"string","maxLength":3})", R"("caf\u00e9")"));
    CHECK(valid(R"({"type":"string","title":"t","description":"d","$comment":"c"})", R"("x")"));
}

TEST_CASE("schema validator: a tap's output, each RECORD under the SCHEMA before it") {
    const std::string schemaA =
        R"({"type":"SCHEMA","stream":"t","schema":{"type":"object","properties":{"id":{"type":"integer"},"a":{"type":["integer","null"]}}},"key_properties":["id"]})";
    const std::string schemaB =
        R"({"type":"SCHEMA","stream":"t","schema":{"type":"object","properties":{"id":{"type":"integer"},"a":{"type":["string","null"]}}},"key_properties":["id"]})";
    const std::string numberA = R"({"type":"RECORD","stream":"t","record":{"id":1,"a":5}})";
    const std::string textA = R"({"type":"RECORD","stream":"t","record":{"id":1,"a":"x5"}})";
    const std::string extra = R"({"type":"RECORD","stream":"t","record":{"id":1,"a":5,"b":1}})";
    CHECK(outputViolations({schemaA, numberA, schemaB, textA}).empty());
    CHECK(outputViolations({schemaA, numberA, textA}).size() == 1);
    CHECK(outputViolations({schemaA, schemaB, numberA}).size() == 1);
    CHECK(outputViolations({numberA, schemaA}).size() == 1);
    CHECK(outputViolations({schemaA, extra}).size() == 1);
}

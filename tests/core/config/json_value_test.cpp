// JSON helpers: Python-shaped reprs and json.dumps layout.
#include <doctest/doctest.h>

#include <limits>

#include "util/json_value.hpp"

using namespace tapdiffgen::core;

TEST_CASE("json_value: floats are written as Python repr writes them") {
    CHECK(jsonvalue::formatDouble(1.5) == "1.5");
    CHECK(jsonvalue::formatDouble(10.0) == "10.0");
    CHECK(jsonvalue::formatDouble(0.0) == "0.0");
    CHECK(jsonvalue::formatDouble(-0.0) == "-0.0");
    CHECK(jsonvalue::formatDouble(0.1) == "0.1");
    CHECK(jsonvalue::formatDouble(0.0001) == "0.0001");
    CHECK(jsonvalue::formatDouble(0.00001) == "1e-05");
    CHECK(jsonvalue::formatDouble(1.5e-7) == "1.5e-07");
    CHECK(jsonvalue::formatDouble(1e16) == "1e+16");
    CHECK(jsonvalue::formatDouble(123456789012345678.0) == "1.2345678901234568e+17");
    CHECK(jsonvalue::formatDouble(1234567890123456.0) == "1234567890123456.0");
    CHECK(jsonvalue::formatDouble(1e300) == "1e+300");
}

TEST_CASE("json_value: reprs of every kind") {
    CHECK(jsonvalue::pythonRepr(jsonvalue::parse("null")) == "None");
    CHECK(jsonvalue::pythonRepr(jsonvalue::parse("true")) == "True");
    CHECK(jsonvalue::pythonRepr(jsonvalue::parse("false")) == "False");
    CHECK(jsonvalue::pythonRepr(jsonvalue::parse("-12")) == "-12");
    CHECK(jsonvalue::pythonRepr(jsonvalue::parse("2.50")) == "2.5");
    CHECK(jsonvalue::pythonRepr(jsonvalue::parse("\"a\\\\b\\n\\u0001\"")) == "'a\\\\b\\n\\x01'");
    CHECK(jsonvalue::pythonRepr(jsonvalue::parse("\"it's\"")) == "\"it's\"");
    CHECK(jsonvalue::pythonRepr(jsonvalue::parse("\"'\\\"\"")) == "'\\'\"'");
    CHECK(jsonvalue::pythonRepr(jsonvalue::parse("\"caf\\u00e9\"")) == "'caf\xC3\xA9'");
    CHECK(jsonvalue::pythonRepr(jsonvalue::parse("[]")) == "[]");
    CHECK(jsonvalue::pythonRepr(jsonvalue::parse("{}")) == "{}");
    CHECK(jsonvalue::pythonRepr(jsonvalue::parse(R"({"b":[1,{"a":null}],"a":"x"})")) ==
          "{'b': [1, {'a': None}], 'a': 'x'}");
}

TEST_CASE("json_value: long reprs are cut without splitting a character") {
    const std::string repr = jsonvalue::pythonRepr(std::string(100, 'x'), 20);
    CHECK(repr == "'xxxxxxxxxxxxxxxx...");
    std::string accents;
    for (int i = 0; i < 50; ++i) accents += "\xC3\xA9";
    const std::string cut = jsonvalue::pythonRepr(accents, 20);
    CHECK(cut == "'" + accents.substr(0, 16) + "...");
}

TEST_CASE("json_value: bare scalars parse, broken text reports a clean message") {
    CHECK(jsonvalue::parse(" 12 ").convert<int>() == 12);
    CHECK(jsonvalue::parse("\"x\"").convert<std::string>() == "x");
    CHECK_THROWS_WITH_AS(jsonvalue::parse("[1, 2"), "unexpected end of text",
                         jsonvalue::JsonSyntaxError);
    CHECK_THROWS_WITH_AS(jsonvalue::parse("1, 2"), doctest::Contains("Attempt"),
                         jsonvalue::JsonSyntaxError);
    CHECK_THROWS_AS(jsonvalue::parse("{\"a\":1e999}"), jsonvalue::JsonSyntaxError);
}

TEST_CASE("json_value: types with draft-7 semantics") {
    CHECK(jsonvalue::matchesType(jsonvalue::parse("3.0"), "integer"));
    CHECK_FALSE(jsonvalue::matchesType(jsonvalue::parse("3.5"), "integer"));
    CHECK_FALSE(jsonvalue::matchesType(jsonvalue::parse("true"), "integer"));
    CHECK_FALSE(jsonvalue::matchesType(jsonvalue::parse("true"), "number"));
    CHECK(jsonvalue::matchesType(jsonvalue::parse("3"), "number"));
    CHECK(jsonvalue::toInt64(jsonvalue::parse("9223372036854775807")) ==
          std::numeric_limits<std::int64_t>::max());
    CHECK_FALSE(jsonvalue::toInt64(jsonvalue::parse("9223372036854775808")));
    CHECK_FALSE(jsonvalue::toInt64(jsonvalue::parse("9.3e18")));
}

TEST_CASE("json_value: writing compact and indented JSON") {
    const auto value =
        jsonvalue::parse(R"({"b":[1,2.0,{}],"a":{"x":[]},"s":"\u00e9\ud83d\ude00\n"})");
    CHECK(jsonvalue::write(value) == R"({"b":[1,2.0,{}],"a":{"x":[]},"s":"\u00e9\ud83d\ude00\n"})");
    CHECK(jsonvalue::writePretty(value) ==
          "{\n"
          "  \"b\": [\n"
          "    1,\n"
          "    2.0,\n"
          "    {}\n"
          "  ],\n"
          "  \"a\": {\n"
          "    \"x\": []\n"
          "  },\n"
          "  \"s\": \"\\u00e9\\ud83d\\ude00\\n\"\n"
          "}");
    CHECK(jsonvalue::scalarText(jsonvalue::parse("true")) == "true");
    CHECK(jsonvalue::scalarText(jsonvalue::parse("\"a\\\"b\"")) == "a\"b");
}

// Map plans and the SCHEMA they derive, against what the SDK's PluginMapper makes of the same
// stream and stream_maps.
#include <doctest/doctest.h>

#include "maps/stream_maps.hpp"
#include "maps/stream_setup.hpp"
#include "maps/value_json.hpp"
#include "util/json_value.hpp"

using namespace tapdiffgen::core;
using namespace tapdiffgen::core::maps;

namespace {

SourceStream invoices() {
    SourceStream s;
    s.name = "invoices";
    s.keyProperties = {"id"};
    s.schema = parseSchema(
        R"({"type":"object","properties":{"id":{"type":"integer"},"email":{"type":["string","null"]},)"
        R"("amount":{"type":["number","null"],"multipleOf":0.01},"doc":{},"is_deleted":{"type":"boolean"}},"required":["id"]})");
    return s;
}

StreamMapSettings settings(const std::string& mapsJson, const std::string& configJson = "") {
    StreamMapSettings s;
    s.streamMaps = jsonvalue::parse(mapsJson).extract<Poco::JSON::Object::Ptr>();
    if (!configJson.empty()) {
        s.streamMapConfig = jsonvalue::parse(configJson).extract<Poco::JSON::Object::Ptr>();
    }
    return s;
}

std::vector<OutputStream> compile(const std::string& mapsJson) {
    const StreamMapSettings checked = settings(mapsJson);
    checkStreamMaps(checked, {"invoices", "customers"});
    return compileStreamMaps(checked, invoices());
}

std::string errorOf(const std::string& mapsJson) {
    try {
        compile(mapsJson);
    } catch (const StreamMapError& e) {
        return e.what();
    }
    return "(no error)";
}

std::vector<std::string> names(const OutputStream& s) {
    std::vector<std::string> out;
    for (const auto& p : s.properties) out.push_back(p.name);
    return out;
}

}  // namespace

TEST_CASE("transform, add and remove properties, typed as the SDK reads them off the text") {
    auto out = compile(R"J({"invoices":{"email":"md5(email) if email else None","amount":null,
        "doubled":"float(amount) * 2","n":"int(id)","label":"'x'","flag":"bool(email)",
        "copy":"amount","raw":"str(doc)","quirk":"id * 2"}})J");
    REQUIRE(out.size() == 1);
    CHECK(out[0].name == "invoices");
    CHECK(names(out[0]) == std::vector<std::string>{"id", "email", "doc", "is_deleted", "doubled",
                                                    "n", "label", "flag", "copy", "raw", "quirk"});
    CHECK(
        out[0].schemaJson() ==
        R"({"type":"object","properties":{"id":{"type":"integer"},"email":{"type":["string","null"]},"doc":{},)"
        R"("is_deleted":{"type":"boolean"},"doubled":{"type":["number","null"]},"n":{"type":["integer","null"]},)"
        R"("label":{"type":["string","null"]},"flag":{"type":["boolean","null"]},)"
        R"("copy":{"type":["string","null"]},"raw":{"type":["string","null"]},"quirk":{"type":["string","null"]}},"required":["id"]})");
    CHECK(out[0].keyProperties == std::vector<std::string>{"id"});
}

TEST_CASE("a property passed through under another name keeps its schema, multipleOf included") {
    auto out = compile(R"({"invoices":{"total":"amount","id":"id"}})");
    CHECK(out[0].schemaJson().find(R"("total":{"type":["number","null"],"multipleOf":0.01})") !=
          std::string::npos);
    CHECK(out[0].schemaJson().find(R"("id":{"type":["integer","null"]})") != std::string::npos);
    CHECK(out[0].properties.back().passthrough == std::optional<size_t>(2));
}

TEST_CASE("__else__ null keeps the keys and the listed properties") {
    auto out = compile(R"J({"invoices":{"__else__":null,"email":"email.lower()"}})J");
    CHECK(names(out[0]) == std::vector<std::string>{"id", "email"});
    CHECK(
        out[0].schemaJson() ==
        R"({"type":"object","properties":{"id":{"type":"integer"},"email":{"type":["string","null"]}}})");
}

TEST_CASE("alias, source, filter, key properties and removal of streams") {
    auto out = compile(R"({"invoices":{"__alias__":"bills","__filter__":"amount > 10"},
        "invoice_emails":{"__source__":"invoices","__else__":null,"__key_properties__":["email"],"email":"email"}})");
    REQUIRE(out.size() == 2);
    CHECK(out[0].name == "bills");
    CHECK(out[0].filter.has_value());
    CHECK(out[1].name == "invoice_emails");
    CHECK(out[1].keyProperties == std::vector<std::string>{"email"});
    CHECK(names(out[1]) == std::vector<std::string>{"email"});

    CHECK(compile(R"({"invoices":null})").empty());
    CHECK(compile(R"({"invoices":"__NULL__"})").empty());
    CHECK(compile(R"({"__else__":null,"customers":{}})").empty());
    CHECK(compile(R"({"__else__":null,"invoices":{}})").size() == 1);
    auto copies = compile(R"({"invoices":null,"copy":{"__source__":"invoices"}})");
    REQUIRE(copies.size() == 1);
    CHECK(copies[0].name == "copy");
    const auto keyless = compile(R"({"invoices":{"id":null,"__key_properties__":[]}})");
    CHECK(keyless[0].keyProperties.empty());
    // The removed key is no longer required either.
    CHECK(keyless[0].schemaJson().find(R"("required":[])") != std::string::npos);
}

TEST_CASE("start-up errors name the stream, the property and the expression") {
    CHECK(errorOf(R"J({"invoices":{"n":"int(amount"}})J") ==
          "stream_maps: stream 'invoices', property 'n', expression 'int(amount': syntax error at "
          "position 11: expected ')' but the expression ended");
    CHECK(errorOf(R"({"invoices":{"n":"nosuch * 2"}})") ==
          "stream_maps: stream 'invoices', property 'n', expression 'nosuch * 2': unknown name "
          "'nosuch'");
    CHECK(errorOf(R"J({"invoices":{"n":"sha1(email)"}})J") ==
          "stream_maps: stream 'invoices', property 'n', expression 'sha1(email)': unknown name "
          "'sha1'");
    CHECK(errorOf(R"({"invoices":{"__filter__":"amount >"}})") ==
          "stream_maps: stream 'invoices', property '__filter__', expression 'amount >': syntax "
          "error "
          "at position 9: unexpected end of expression");
    CHECK(errorOf(R"({"invoices":{"id":null}})") ==
          "stream_maps: stream 'invoices': removing key property 'id' needs __key_properties__ (a "
          "new "
          "list of key properties, or null for none)");
    CHECK(errorOf(R"({"x":{"__source__":"payments"}})") ==
          "stream_maps: stream 'x': __source__ 'payments' is not a configured stream");
    CHECK(errorOf(R"({"invoices":{"n":5}})") ==
          "stream_maps: stream 'invoices': property 'n' must be mapped to an expression (a string) "
          "or null");
    CHECK(
        errorOf(R"({"invoices":{"__key_properties__":["nope"]}})") ==
        "stream_maps: stream 'invoices': key property 'nope' is not among the stream's properties");
    CHECK(errorOf(R"({"__else__":"x"})") == "stream_maps: a top-level __else__ may only be null");
    CHECK(errorOf(R"({"__other__":null})") == "stream_maps: unknown option '__other__'");
    CHECK(errorOf(R"({"invoices":{"__else__":"keep"}})") ==
          "stream_maps: stream 'invoices': __else__ may only be null");
}

TEST_CASE("an expression that fails whatever the record is refused at start-up") {
    CHECK(errorOf(R"({"invoices":{"big":"'x' * 10**10"}})") ==
          "stream_maps: stream 'invoices', property 'big', expression \"'x' * 10**10\": "
          "IterableTooLong: the result would be longer than simpleeval's MAX_STRING_LENGTH of "
          "100000");
    CHECK(errorOf(R"({"invoices":{"__filter__":"2 ** 5000000 > 1"}})") ==
          "stream_maps: stream 'invoices', property '__filter__', expression '2 ** 5000000 > 1': "
          "NumberTooHigh: 2 ** 5000000 is refused: an operand is over simpleeval's MAX_POWER of "
          "4000000");
}

TEST_CASE("an expression nested 10,000 deep gives one line, its text cut to its start") {
    const std::string deep = std::string(10000, '(') + "id" + std::string(10000, ')');
    const std::string error = errorOf(R"({"invoices":{"deep":")" + deep + R"("}})");
    CHECK(error == "stream_maps: stream 'invoices', property 'deep', expression '" +
                       std::string(196, '(') +
                       "...: the expression is nested more than 200 levels deep (at position "
                       "202)");
}

TEST_CASE("a map naming no configured stream is reported") {
    CHECK(
        unusedStreamMaps(
            settings(
                R"({"invoces":{},"__else__":null,"copy":{"__source__":"invoices"},"invoices":null})"),
            {"invoices"}) == std::vector<std::string>{"invoces"});
}

TEST_CASE("flattening: objects with properties are expanded, the rest is declared as JSON text") {
    StreamMapSettings flat = settings(R"({"invoices":{"__else__":null,"raw":"record"}})");
    flat.flatteningEnabled = true;
    flat.flatteningMaxDepth = 1;
    auto out = compileStreamMaps(flat, invoices());
    REQUIRE(out.size() == 1);
    CHECK(
        out[0].schemaJson() ==
        R"({"type":"object","properties":{"id":{"type":"integer"},"raw__id":{"type":"integer"},)"
        R"("raw__email":{"type":["string","null"]},"raw__amount":{"type":["number","null"],"multipleOf":0.01},)"
        R"("raw__doc":{"type":["string","null"]},"raw__is_deleted":{"type":"boolean"}}})");
    REQUIRE(out[0].flat.size() == 6);
    CHECK(out[0].flat[1].path == std::vector<std::string>{"id"});
    CHECK(out[0].flat[4].asJsonText);  // the open-schema JSON column inside the record

    // Depth 0 flattens nothing; without maps the JSON column itself becomes JSON text.
    StreamMapSettings none = settings("{}");
    none.flatteningEnabled = true;
    none.flatteningMaxDepth = 0;
    CHECK(compileStreamMaps(none, invoices())[0].schemaJson() ==
          jsonvalue::write(invoices().schema));
    none.flatteningMaxDepth = 3;
    auto plain = compileStreamMaps(none, invoices());
    CHECK(plain[0].schemaJson().find(R"("doc":{"type":["string","null"]})") != std::string::npos);

    StreamMapSettings clash =
        settings(R"({"invoices":{"__else__":null,"raw":"record","raw__id":"id"}})");
    clash.flatteningEnabled = true;
    clash.flatteningMaxDepth = 1;
    try {
        compileStreamMaps(clash, invoices());
        FAIL("a duplicate flattened name was accepted");
    } catch (const StreamMapError& e) {
        CHECK(std::string(e.what()) ==
              "flattening: stream 'invoices': two properties flatten to the same name 'raw__id'");
    }
}

TEST_CASE("Python's json.dumps text of nested values") {
    std::string out;
    appendJson(out, parseJsonValue(R"({"a":{"b":1.50},"t":"é\n","l":[true,null]})"),
               JsonLayout::PythonDumps);
    CHECK(out == R"({"a": {"b": 1.5}, "t": "\u00e9\n", "l": [true, null]})");
}

TEST_CASE("a stream the maps leave alone is marked unchanged (it keeps the direct path)") {
    auto untouched = compileStreamMaps(settings(R"({"customers":null})"), invoices());
    REQUIRE(untouched.size() == 1);
    CHECK(untouched[0].unchanged);
    CHECK_FALSE(compile(R"({"invoices":{"x":"1"}})")[0].unchanged);
    CHECK_FALSE(compile(R"({"invoices":{"__alias__":"bills"}})")[0].unchanged);
    StreamMapSettings flat = settings("{}");
    flat.flatteningEnabled = true;
    flat.flatteningMaxDepth = 1;
    CHECK_FALSE(compileStreamMaps(flat, invoices())[0].unchanged);
}

TEST_CASE("two output streams under one name are refused, both named") {
    auto aliased = compile(R"({"invoices":{"__alias__":"customers"},
        "copy":{"__source__":"invoices"}})");
    REQUIRE(aliased.size() == 2);
    CHECK(aliased[0].origin == "stream 'invoices' through its __alias__");
    CHECK(aliased[1].origin == "'copy' through its __source__ 'invoices'");
    CHECK(compile(R"({"invoices":{}})")[0].origin == "stream 'invoices'");

    std::vector<OutputName> outputs = outputNamesOf("customers", nullptr);
    outputs.push_back({aliased[0].name, aliased[0].origin});
    try {
        checkOutputNames(outputs);
        FAIL("no error");
    } catch (const StreamMapError& e) {
        CHECK(std::string(e.what()) ==
              "stream_maps: stream 'customers' and stream 'invoices' through its __alias__ both "
              "write stream 'customers'");
    }
    outputs.back().name = "bills";
    CHECK_NOTHROW(checkOutputNames(outputs));
}

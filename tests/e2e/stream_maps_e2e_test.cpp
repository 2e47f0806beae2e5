// Stream maps and flattening through the real binary on real PostgreSQL and MariaDB: every map
// operator, the tap's SCHEMA for each output stream, deletes through maps and filters, the
// start-up and run-time errors, a flattened JSON column, and the settings in --about.
#include <doctest/doctest.h>

#include <Poco/JSON/Parser.h>
#include <Poco/MD5Engine.h>

#include <set>
#include <sstream>

#include "dialect_fixture.hpp"

using namespace tapdiffgen::testing;
using Poco::JSON::Object;

namespace {

std::string md5Hex(const std::string& text) {
    Poco::MD5Engine engine;
    engine.update(text);
    return Poco::DigestEngine::digestToHex(engine.digest());
}

std::set<std::string> namesOf(const Object::Ptr& object) {
    std::set<std::string> names;
    for (const auto& name : object->getNames()) names.insert(name);
    return names;
}

std::map<std::string, Object::Ptr> schemasOf(const TapRun& run) {
    std::map<std::string, Object::Ptr> schemas;
    for (const auto& message : run.messages("SCHEMA")) {
        schemas[message->getValue<std::string>("stream")] = message;
    }
    return schemas;
}

std::map<int64_t, Object::Ptr> byId(const std::vector<Object::Ptr>& records) {
    std::map<int64_t, Object::Ptr> out;
    for (const auto& record : records) out[record->getValue<int64_t>("id")] = record;
    return out;
}

// Every RECORD has exactly the properties its stream's SCHEMA declares.
void checkRecordsMatchSchemas(const TapRun& run) {
    const auto schemas = schemasOf(run);
    for (const auto& message : run.messages("RECORD")) {
        const std::string stream = message->getValue<std::string>("stream");
        REQUIRE_MESSAGE(schemas.count(stream), stream);
        const auto declared =
            namesOf(schemas.at(stream)->getObject("schema")->getObject("properties"));
        CHECK_MESSAGE(namesOf(message->getObject("record")) == declared, stream);
    }
}

std::string lineOf(const TapRun& run, const std::string& stream, const std::string& fragment) {
    for (const auto& line : run.lines) {
        if (line.find(R"("stream":")" + stream + "\"") != std::string::npos &&
            line.find(fragment) != std::string::npos)
            return line;
    }
    return "";
}

struct MapsFixture {
    JournalledSchema schema;
    std::string customers;
    std::string others;

    MapsFixture(const DatabaseEnv& env, const std::string& prefix) : schema(env, prefix) {
        schema.createTable("cust",
                           "id INTEGER PRIMARY KEY, name VARCHAR(50), email VARCHAR(100), "
                           "country VARCHAR(2), amount NUMERIC(12,2), note VARCHAR(20), doc JSON",
                           "id");
        schema.createTable("other", "id INTEGER PRIMARY KEY, v INTEGER", "id");
        customers = schema.table("cust");
        others = schema.table("other");
        schema.exec("INSERT INTO " + customers +
                    " VALUES (1, 'Ada Lovelace', 'Ada@Example.com', 'DE', 1250.00, '42', "
                    "'{\"a\":{\"b\":1},\"t\":\"x\"}')");
        schema.exec("INSERT INTO " + customers +
                    " VALUES (2, 'Alan Turing', 'alan@example.com', 'GB', 20.50, NULL, NULL)");
        schema.exec("INSERT INTO " + customers +
                    " VALUES (3, 'Grace Hopper', 'grace@example.com', 'DE', 99.99, 'x', "
                    "'[1,2]')");
        schema.exec("DELETE FROM " + customers + " WHERE id = 2");
        schema.exec("INSERT INTO " + others + " VALUES (1, 5)");
    }

    TapRun run(const ScratchDir& dir, const std::string& extra) const {
        return runTapBinary({"--config", schema.writeConfig(dir, {customers, others}, extra)});
    }
};

void mapOperators(const MapsFixture& f) {
    ScratchDir dir;
    const std::string& c = f.customers;
    TapRun run = f.run(dir, R"("stream_maps":{")" + c +
                                R"J(":{"__alias__":"customers","__filter__":"country == 'DE'",
            "email":"md5(email)","name":null,"note":"__NULL__","amount2":"float(amount) * 2",
            "first":"name.split(' ')[0]","total":"amount","tag":"config['tag'] + str(id)",
            "country":"self.lower()"},
        "cust_keys":{"__source__":")J" +
                                c +
                                R"J(","__else__":null,"upper":"email.upper()"},
        ")J" + f.others + R"J(":null},
        "stream_map_config":{"tag":"T"})J");
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    checkRecordsMatchSchemas(run);

    // Streams: the alias replaces the source's name, __source__ adds one, null removes one.
    const auto schemas = schemasOf(run);
    CHECK(schemas.size() == 2);
    REQUIRE(schemas.count("customers"));
    REQUIRE(schemas.count("cust_keys"));
    CHECK(run.records(c).empty());
    CHECK(run.records(f.others).empty());

    const Object::Ptr customerSchema = schemas.at("customers")->getObject("schema");
    const Object::Ptr properties = customerSchema->getObject("properties");
    CHECK(namesOf(properties) == std::set<std::string>{"id", "email", "country", "amount", "doc",
                                                       "is_deleted", "_sdc_diffgen_ts_created",
                                                       "_sdc_deleted_at", "amount2", "first",
                                                       "total", "tag"});
    auto schemaText = [&](const std::string& name) {
        std::ostringstream out;
        properties->getObject(name)->stringify(out);
        return out.str();
    };
    CHECK(schemaText("amount2") == R"({"type":["number","null"]})");
    CHECK(schemaText("tag") == R"({"type":["string","null"]})");
    // A property passed through under a new name keeps its schema, multipleOf included.
    CHECK(schemaText("total") == schemaText("amount"));
    const std::string& rawSchemaLine = lineOf(run, "customers", R"("type":"SCHEMA")");
    CHECK(rawSchemaLine.find(R"("total":{"type":["number","null"],"multipleOf":0.01})") !=
          std::string::npos);
    CHECK(schemas.at("customers")->getArray("key_properties")->getElement<std::string>(0) == "id");

    // The filter keeps DE rows; the delete of a GB row is never filtered out.
    auto records = byId(run.records("customers"));
    REQUIRE(records.size() == 3);
    const Object::Ptr ada = records.at(1);
    CHECK(ada->getValue<std::string>("email") == md5Hex("Ada@Example.com"));
    CHECK(ada->getValue<std::string>("first") == "Ada");
    CHECK(ada->getValue<std::string>("tag") == "T1");
    CHECK(ada->getValue<std::string>("country") == "de");  // the filter read the input
    CHECK_FALSE(ada->has("name"));
    CHECK_FALSE(ada->has("note"));
    const std::string adaLine = lineOf(run, "customers", R"("id":1,)");
    CHECK(adaLine.find(R"("amount":1250.00,)") != std::string::npos);
    CHECK(adaLine.find(R"("amount2":2500.0,)") != std::string::npos);
    CHECK(adaLine.find(R"("total":1250.00,)") != std::string::npos);

    const Object::Ptr tombstone = records.at(2);
    CHECK(tombstone->getValue<bool>("is_deleted"));
    CHECK(tombstone->isNull("email"));
    CHECK(tombstone->isNull("amount2"));
    CHECK(tombstone->isNull("first"));
    CHECK(tombstone->isNull("country"));
    CHECK(tombstone->getValue<std::string>("tag") == "T2");
    CHECK_FALSE(tombstone->isNull("_sdc_deleted_at"));
    CHECK(records.at(3)->getValue<std::string>("first") == "Grace");

    // The second stream of the same table: every row, only the key and the listed property.
    auto keys = byId(run.records("cust_keys"));
    REQUIRE(keys.size() == 3);
    CHECK(namesOf(keys.at(1)) == std::set<std::string>{"id", "upper"});
    CHECK(keys.at(1)->getValue<std::string>("upper") == "ADA@EXAMPLE.COM");
    CHECK(keys.at(2)->isNull("upper"));

    // Bookmarks stay those of the source streams.
    CHECK(run.lastState().find("\"" + c + "\"") != std::string::npos);
}

void keyPropertiesAndElse(const MapsFixture& f) {
    ScratchDir dir;
    TapRun rekeyed = f.run(dir, R"("stream_maps":{")" + f.customers +
                                    R"J(":{"id":null,"__key_properties__":["email"]}})J");
    REQUIRE_MESSAGE(rekeyed.exitCode == 0, rekeyed.stderrText);
    checkRecordsMatchSchemas(rekeyed);
    auto schemas = schemasOf(rekeyed);
    CHECK(schemas.at(f.customers)->getArray("key_properties")->getElement<std::string>(0) ==
          "email");
    CHECK(schemas.at(f.customers)->getArray("key_properties")->size() == 1);
    for (const auto& record : rekeyed.records(f.customers)) CHECK_FALSE(record->has("id"));
    CHECK(rekeyed.records(f.others).size() == 1);  // not mapped: passed through unchanged

    // A top-level __else__ null removes every stream not named.
    TapRun only = f.run(dir, R"("stream_maps":{"__else__":null,")" + f.others +
                                 R"J(":{"v2":"v * 2","v3":"int(v) * 3"}})J");
    REQUIRE_MESSAGE(only.exitCode == 0, only.stderrText);
    checkRecordsMatchSchemas(only);
    CHECK(schemasOf(only).size() == 1);
    CHECK(only.records(f.customers).empty());
    auto other = only.records(f.others);
    REQUIRE(other.size() == 1);
    CHECK(other[0]->getValue<int64_t>("v2") == 10);
    CHECK(other[0]->getValue<int64_t>("v3") == 15);
    // The SDK types a computed property by its text: `v * 2` is a string (the SDK's quirk:
    // its value is a number), `int(…)` an integer.
    const auto otherProperties =
        schemasOf(only).at(f.others)->getObject("schema")->getObject("properties");
    std::ostringstream v2, v3;
    otherProperties->getObject("v2")->stringify(v2);
    otherProperties->getObject("v3")->stringify(v3);
    CHECK(v2.str() == R"({"type":["string","null"]})");
    CHECK(v3.str() == R"({"type":["integer","null"]})");
}

void startUpErrors(const MapsFixture& f) {
    ScratchDir dir;
    const std::string c = f.customers;
    const std::vector<std::pair<std::string, std::string>> cases = {
        {R"J({")J" + c + R"J(":{"n":"int(amount"}})J",
         "stream_maps: stream '" + c +
             "', property 'n', expression 'int(amount': syntax error at position 11: expected ')' "
             "but the expression ended"},
        {R"J({")J" + c + R"J(":{"n":"nosuch * 2"}})J",
         "stream_maps: stream '" + c +
             "', property 'n', expression 'nosuch * 2': unknown name 'nosuch'"},
        {R"J({")J" + c + R"J(":{"n":"email.frobnicate()"}})J",
         "stream_maps: stream '" + c +
             "', property 'n', expression 'email.frobnicate()': unknown function 'frobnicate'"},
        {R"J({")J" + c + R"J(":{"id":null}})J",
         "stream_maps: stream '" + c +
             "': removing key property 'id' needs __key_properties__ (a new list of key "
             "properties, or null for none)"},
        {R"J({"copy":{"__source__":"no_such_stream"}})J",
         "stream_maps: stream 'copy': __source__ 'no_such_stream' is not a configured stream"},
    };
    for (const auto& [maps, expected] : cases) {
        CAPTURE(maps);
        TapRun run = f.run(dir, R"("stream_maps":)" + maps);
        CHECK(run.exitCode == 1);
        auto errors = run.errorMessages();
        REQUIRE_MESSAGE(errors.size() == 1, run.stderrText);
        CHECK(errors[0] == expected);
        CHECK(run.lines.empty());  // nothing at all on stdout, not even a SCHEMA
        CHECK(run.stderrText.find("terminate called") == std::string::npos);
    }
}

void runTimeErrors(const MapsFixture& f) {
    ScratchDir dir;
    // One event per page: the rows before the failing one are emitted with their STATE, and no
    // STATE covers the failing row or anything after it.
    TapRun run = f.run(dir, R"("page_size":1,"max_page_size":1,"stream_maps":{")" + f.customers +
                                R"J(":{"n":"int(note)"}})J");
    CHECK(run.exitCode == 1);
    auto errors = run.errorMessages();
    REQUIRE_MESSAGE(errors.size() == 1, run.stderrText);
    CHECK(errors[0] == "stream_maps: stream '" + f.customers +
                           "', property 'n', record id=3, expression 'int(note)': "
                           "ValueError: invalid literal for int() with base 10: 'x'");
    auto records = byId(run.records(f.customers));
    CHECK(records.count(1));
    CHECK(records.at(1)->getValue<int64_t>("n") == 42);
    CHECK(records.count(2));  // the tombstone: int(None) is null
    CHECK(records.count(2) == 1);
    CHECK_FALSE(records.count(3));
    const std::string state = run.lastState();
    CHECK(state.find(R"("replication_key_value":2)") != std::string::npos);
    CHECK(state.find(R"("replication_key_value":3)") == std::string::npos);

    TapRun filter =
        f.run(dir, R"("stream_maps":{")" + f.customers + R"J(":{"__filter__":"email + 1"}})J");
    CHECK(filter.exitCode == 1);
    errors = filter.errorMessages();
    REQUIRE_MESSAGE(errors.size() == 1, filter.stderrText);
    CHECK(errors[0].find("stream_maps: stream '" + f.customers +
                         "', property '__filter__', record id=") == 0);
    CHECK(errors[0].find(
              "expression 'email + 1': TypeError: can only concatenate str (not \"int\") to str") !=
          std::string::npos);
    CHECK(filter.lastState().empty());
}

void flattening(const MapsFixture& f) {
    ScratchDir dir;
    // The open-schema JSON column becomes its JSON text, declared as a string.
    TapRun plain = f.run(dir, R"("flattening_enabled":true,"flattening_max_depth":1)");
    REQUIRE_MESSAGE(plain.exitCode == 0, plain.stderrText);
    checkRecordsMatchSchemas(plain);
    const auto properties =
        schemasOf(plain).at(f.customers)->getObject("schema")->getObject("properties");
    std::ostringstream docSchema;
    properties->getObject("doc")->stringify(docSchema);
    CHECK(docSchema.str() == R"({"type":["string","null"]})");
    auto records = byId(plain.records(f.customers));
    REQUIRE(records.size() == 3);
    CHECK(records.at(1)->getValue<std::string>("doc") == R"({"a": {"b": 1}, "t": "x"})");
    CHECK(records.at(3)->getValue<std::string>("doc") == "[1, 2]");
    CHECK(records.at(2)->isNull("doc"));

    // After the maps: an object with properties is expanded with __, one level deep here; the
    // JSON column inside it stays JSON text.
    TapRun mapped = f.run(dir, R"("flattening_enabled":true,"flattening_max_depth":1,)"
                               R"("stream_maps":{")" +
                                   f.customers + R"J(":{"__else__":null,"raw":"record"}})J");
    REQUIRE_MESSAGE(mapped.exitCode == 0, mapped.stderrText);
    checkRecordsMatchSchemas(mapped);
    records = byId(mapped.records(f.customers));
    REQUIRE(records.size() == 3);
    CHECK(records.at(1)->getValue<int64_t>("raw__id") == 1);
    CHECK(records.at(1)->getValue<std::string>("raw__email") == "Ada@Example.com");
    CHECK(records.at(1)->getValue<std::string>("raw__doc") == R"({"a": {"b": 1}, "t": "x"})");
    CHECK(lineOf(mapped, f.customers, R"("raw__amount":1250.00,)") != "");
    CHECK(records.at(2)->getValue<bool>("raw__is_deleted"));
    CHECK_FALSE(records.at(1)->has("raw"));

    // Depth 0 flattens nothing (as in the SDK): the JSON column keeps its value and schema.
    TapRun none = f.run(dir, R"("flattening_enabled":true,"flattening_max_depth":0)");
    REQUIRE_MESSAGE(none.exitCode == 0, none.stderrText);
    CHECK(lineOf(none, f.customers, R"("doc":{"a":{"b":1},"t":"x"})") != "");
}

// Meltano passes stream_maps as JSON text in the environment, like tables.
void fromEnvironment(const MapsFixture& f, const DatabaseEnv& env) {
    ScratchDir dir;
    std::string dotenv;
    for (const auto& [key, value] : env.options()) {
        std::string name = key;
        for (char& ch : name) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
        dotenv += "TAP_DIFFGEN_" + name + "=" + value + "\n";
    }
    dotenv += "TAP_DIFFGEN_DIFFGEN_TABLE=" + f.schema.diffgenTable() + "\n";
    dotenv +=
        R"(TAP_DIFFGEN_TABLES='[{"table_name":")" + f.customers + R"(","pk_column":"id"}]')" + "\n";
    dotenv += R"(TAP_DIFFGEN_STREAM_MAPS='{")" + f.customers +
              R"J(":{"__alias__":"from_env","doubled":"int(id) * 2"}}')J" + "\n";
    dir.write(".env", dotenv);
    TapRun run = runTapBinary({"--config", "ENV"}, dir.path());
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    auto records = byId(run.records("from_env"));
    REQUIRE(records.size() == 3);
    CHECK(records.at(3)->getValue<int64_t>("doubled") == 6);
}

// A stream that starts from a snapshot goes through its map too, rows and all.
void snapshotStart(const MapsFixture& f, const DatabaseEnv& env) {
    ScratchDir dir;
    const std::string config = dir.write(
        "snapshot.json", env.configPrefix() + R"(,"diffgen_table":")" + f.schema.diffgenTable() +
                             R"(","tables":[{"table_name":")" + f.customers +
                             R"(","pk_column":"id","start_from":"snapshot"}],"stream_maps":{")" +
                             f.customers +
                             R"J(":{"__alias__":"snap","__else__":null,"who":"name.upper()"}}})J");
    TapRun run = runTapBinary({"--config", config});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    checkRecordsMatchSchemas(run);
    auto records = byId(run.records("snap"));
    REQUIRE(records.size() == 2);  // the rows there are now: 1 and 3
    CHECK(records.at(1)->getValue<std::string>("who") == "ADA LOVELACE");
    CHECK(namesOf(records.at(3)) == std::set<std::string>{"id", "who"});
}

void streamMapsEndToEnd(const DatabaseEnv& env) {
    MapsFixture f(env, "maps");
    SUBCASE("operators") { mapOperators(f); }
    SUBCASE("key properties and __else__") { keyPropertiesAndElse(f); }
    SUBCASE("start-up errors") { startUpErrors(f); }
    SUBCASE("run-time errors") { runTimeErrors(f); }
    SUBCASE("flattening") { flattening(f); }
    SUBCASE("environment") { fromEnvironment(f, env); }
    SUBCASE("snapshot start") { snapshotStart(f, env); }
}

}  // namespace

TEST_CASE("postgres: stream maps and flattening") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    streamMapsEndToEnd(db);
}

TEST_CASE("mysql: stream maps and flattening") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    streamMapsEndToEnd(db);
}

TEST_CASE("--about --format json lists the map settings and capabilities") {
    TapRun run = runTapBinary({"--about", "--format", "json"});
    REQUIRE(run.exitCode == 0);
    std::string text;
    for (const auto& line : run.lines) text += line + "\n";
    Poco::JSON::Parser parser;
    const Object::Ptr about = parser.parse(text).extract<Object::Ptr>();
    std::set<std::string> capabilities;
    const auto array = about->getArray("capabilities");
    for (size_t i = 0; i < array->size(); ++i) {
        capabilities.insert(array->getElement<std::string>(static_cast<unsigned>(i)));
    }
    CHECK(capabilities.count("stream-maps"));
    CHECK(capabilities.count("schema-flattening"));
    const auto settings = about->getObject("settings")->getObject("properties");
    for (const char* name :
         {"stream_maps", "stream_map_config", "flattening_enabled", "flattening_max_depth"}) {
        CAPTURE(name);
        REQUIRE(settings->has(name));
    }
    CHECK(settings->getObject("stream_maps")->getValue<std::string>("type") == "object");
    CHECK(settings->getObject("flattening_enabled")->getValue<bool>("default") == false);
}

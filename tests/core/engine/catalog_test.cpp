// --discover output and --catalog selection, as Meltano uses them.
#include <doctest/doctest.h>

#include <Poco/JSON/Parser.h>

#include "engine/fake_database.hpp"

using tapdiffgen::testing::FakeSetup;
using tapdiffgen::testing::runTap;

namespace {

const char* kDatabase = R"({"tables":{
  "invoices":{"columns":[{"name":"id","kind":"int64","pk":true},
                         {"name":"amount","kind":"decimal","scale":4},
                         {"name":"secret","kind":"text"}],
              "rows":[[1,"1.5000","x"]]},
  "sales.orders":{"columns":[{"name":"code","kind":"text","pk":true},{"name":"paid","kind":"bool"}],
                  "rows":[["A",true]]}},
 "diffgen":[[1,"invoices","1","i","t1"],[2,"orders","A","u","t2"]]})";

const char* kTables = R"("tables":[{"table_name":"invoices","pk_column":"id"},
                                   {"table_name":"sales.orders","pk_column":"code"}])";

Poco::JSON::Object::Ptr parse(const std::string& text) {
    Poco::JSON::Parser parser;
    return parser.parse(text).extract<Poco::JSON::Object::Ptr>();
}

}  // namespace

TEST_CASE("discover lists the configured tables with SDK-shaped metadata") {
    FakeSetup setup(kDatabase, kTables);
    auto run = runTap({"--config", setup.configPath(), "--discover"});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    REQUIRE(run.lines.size() == 1);
    auto streams = parse(run.lines[0])->getArray("streams");
    REQUIRE(streams->size() == 2);
    auto orders = streams->getObject(1);
    CHECK(orders->getValue<std::string>("tap_stream_id") == "sales-orders");
    CHECK(orders->getValue<std::string>("table_name") == "orders");
    auto properties = orders->getObject("schema")->getObject("properties");
    CHECK(properties->has("code"));
    CHECK(properties->has("is_deleted"));
    CHECK(properties->has("_sdc_diffgen_ts_created"));
    CHECK(properties->has("_sdc_deleted_at"));
    auto streamMetadata = orders->getArray("metadata")->getObject(0)->getObject("metadata");
    CHECK(streamMetadata->getValue<std::string>("forced-replication-method") == "LOG_BASED");
    CHECK(streamMetadata->getValue<std::string>("schema-name") == "sales");
    CHECK(streamMetadata->getValue<bool>("selected-by-default"));
    auto keyMetadata = orders->getArray("metadata")->getObject(1);
    CHECK(keyMetadata->getArray("breadcrumb")->getElement<std::string>(1) == "code");
    CHECK(keyMetadata->getObject("metadata")->getValue<std::string>("inclusion") == "automatic");

    auto invoices = streams->getObject(0)->getObject("schema");
    auto amount = invoices->getObject("properties")->getObject("amount");
    CHECK(amount->getValue<std::string>("multipleOf") == "0.0001");
    CHECK(amount->getArray("type")->getElement<std::string>(1) == "null");
    auto key = invoices->getObject("properties")->getObject("id");
    CHECK(key->getValue<std::string>("type") == "integer");
}

TEST_CASE("a catalog deselects columns and streams") {
    FakeSetup setup(kDatabase, kTables);
    auto discovered = runTap({"--config", setup.configPath(), "--discover"});
    REQUIRE(discovered.exitCode == 0);
    std::string catalog = discovered.lines[0];
    // Deselect invoices.secret and the whole orders stream, as Meltano's select rules would.
    auto replace = [&](const std::string& from, const std::string& to) {
        auto at = catalog.find(from);
        REQUIRE(at != std::string::npos);
        catalog.replace(at, from.size(), to);
    };
    replace(R"("secret"],"metadata":{"inclusion":"available",)",
            R"("secret"],"metadata":{"inclusion":"available","selected":false,)");
    auto ordersAt = catalog.find(R"("tap_stream_id":"sales-orders")");
    auto metaAt = catalog.find(R"("breadcrumb":[],"metadata":{)", ordersAt);
    catalog.insert(metaAt + std::string(R"("breadcrumb":[],"metadata":{)").size(),
                   R"("selected":false,)");
    std::string path = setup.write("catalog.json", catalog);

    auto run = runTap({"--config", setup.configPath(), "--catalog", path});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    auto schemas = run.messages("SCHEMA");
    REQUIRE(schemas.size() == 1);
    CHECK(schemas[0]->getValue<std::string>("stream") == "invoices");
    CHECK_FALSE(schemas[0]->getObject("schema")->getObject("properties")->has("secret"));
    auto records = run.records("invoices");
    REQUIRE(records.size() == 1);
    CHECK_FALSE(records[0]->has("secret"));
    CHECK(records[0]->has("amount"));
    CHECK(run.records("sales-orders").empty());
}

TEST_CASE("a catalog naming an unconfigured stream is refused") {
    FakeSetup setup(kDatabase, kTables);
    std::string path =
        setup.write("catalog.json", R"({"streams":[{"tap_stream_id":"payments","metadata":[]}]})");
    auto run = runTap({"--config", setup.configPath(), "--catalog", path});
    CHECK(run.exitCode == 1);
    CHECK(run.lines.empty());
    CHECK(run.stderrText.find("names stream 'payments', which is not configured") !=
          std::string::npos);
}

TEST_CASE("discover ignores the catalog and state Meltano attaches") {
    FakeSetup setup(kDatabase, kTables);
    std::string catalog = setup.write("catalog.json", "{not json");
    std::string state = setup.write("state.json", "{not json");
    auto run = runTap(
        {"--config", setup.configPath(), "--discover", "--catalog", catalog, "--state", state});
    CHECK(run.exitCode == 0);
}

TEST_CASE("schema-qualified tables become dash-named streams and read the name without schema") {
    FakeSetup setup(kDatabase, kTables);
    auto run = runTap({"--config", setup.configPath()});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    auto orders = run.records("sales-orders");
    REQUIRE(orders.size() == 1);
    CHECK(orders[0]->getValue<std::string>("code") == "A");
    CHECK(orders[0]->getValue<bool>("paid"));
}

namespace {

// The same tables, with triggers that write the schema-qualified name into diffgen.
const char* kQualifiedJournal = R"({"tables":{
  "invoices":{"columns":[{"name":"id","kind":"int64","pk":true}],"rows":[[1]]},
  "sales.orders":{"columns":[{"name":"code","kind":"text","pk":true}],"rows":[["A"]]}},
 "diffgen":[[1,"invoices","1","i","t1"],[2,"sales.orders","A","u","t2"]]})";

}  // namespace

TEST_CASE("journal_name matches a trigger that writes the schema-qualified name") {
    FakeSetup setup(kQualifiedJournal,
                    R"("tables":[{"table_name":"invoices","pk_column":"id"},
                      {"table_name":"sales.orders","pk_column":"code",
                       "journal_name":"sales.orders"}])");
    auto run = runTap({"--config", setup.configPath()});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    REQUIRE(run.records("sales-orders").size() == 1);
    CHECK(run.records("sales-orders")[0]->getValue<std::string>("code") == "A");
}

TEST_CASE("events under a near name but none under the journal name stop the run") {
    FakeSetup setup(kQualifiedJournal, kTables);
    auto run = runTap({"--config", setup.configPath()});
    CHECK(run.exitCode == 1);
    CHECK(run.lines.empty());
    CHECK(run.stderrText.find("table 'sales.orders': diffgen has events under 'sales.orders' but "
                              "none under its journal name 'orders'; set journal_name to what "
                              "its trigger writes into diffgen.tablename") != std::string::npos);
}

TEST_CASE("an explicit journal_name with events only under a near name is a warning") {
    FakeSetup setup(kQualifiedJournal,
                    R"("tables":[{"table_name":"invoices","pk_column":"id"},
                      {"table_name":"sales.orders","pk_column":"code",
                       "journal_name":"orders"}])");
    auto run = runTap({"--config", setup.configPath()});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(run.stderrText.find("WARNING") != std::string::npos);
    CHECK(run.stderrText.find("diffgen has events under 'sales.orders' but none under its "
                              "journal name 'orders'") != std::string::npos);
    CHECK(run.records("sales-orders").empty());
}

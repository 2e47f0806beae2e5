// --about in its three formats, all generated from the settings catalogue.
#include <doctest/doctest.h>

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>

#include <stdexcept>
#include <string>

#include "cli/about.hpp"
#include "config/settings.hpp"

using namespace tapdiffgen::core;
using Poco::JSON::Array;
using Poco::JSON::Object;

namespace {

Object::Ptr parseObject(const std::string& text) {
    Poco::JSON::Parser parser;
    return parser.parse(text).extract<Object::Ptr>();
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// A setting as two plugins' declarations merge into it.
SettingSpec pluginSetting() {
    SettingSpec spec;
    spec.name = "ssl_key";
    spec.type = "string";
    spec.description = "Path of the client certificate's private key file.";
    spec.driverOption = true;
    spec.dialects = {"postgres", "mysql"};
    return spec;
}

}  // namespace

TEST_CASE("about: text lists identity, capabilities and every setting") {
    const std::string text = aboutText("text", {});
    CHECK(text.rfind("Name: tap-diffgen\nDescription: ", 0) == 0);
    CHECK(contains(text, std::string("\nVersion: ") + TDG_PROJECT_VERSION + "\n"));
    CHECK(contains(
        text,
        "\nCapabilities:\n  - catalog\n  - state\n  - discover\n  - about\n"
        "  - log-based\n  - test\n  - stream-maps\n  - schema-flattening\n  - batch\nSettings:\n"));
    for (const auto& spec : flatSettingSpecs()) {
        CAPTURE(spec.name);
        CHECK(contains(text, "  - Name: " + spec.name + "\n    Type: " + spec.type +
                                 "\n    Environment Variable: " + settingEnvVar(spec.name) + "\n"));
    }
    CHECK(contains(text,
                   "  - Name: password\n    Type: string\n"
                   "    Environment Variable: TAP_DIFFGEN_PASSWORD\n    Secret: true\n"));
    CHECK(contains(text, "    Environment Variable: TAP_DIFFGEN_PAGE_SIZE\n    Default: 10000\n"));
    // Each setting ends with its description, as --about --format json gives it.
    for (const auto& spec : flatSettingSpecs()) {
        CAPTURE(spec.name);
        CHECK(contains(text, "    Description: " + spec.description + "\n"));
    }
    CHECK(contains(
        text,
        "  - Name: ssh_tunnel.private_key\n    Type: string\n"
        "    Environment Variable: TAP_DIFFGEN_SSH_TUNNEL_PRIVATE_KEY\n    Secret: true\n"));
    CHECK(text.back() == '\n');
    CHECK(aboutText("text", {}) == text);
}

TEST_CASE("about: json has the SDK's keys and the settings schema") {
    const Object::Ptr about = parseObject(aboutText("json", {}));
    CHECK(about->getNames().size() == 5);
    CHECK(about->getValue<std::string>("name") == "tap-diffgen");
    CHECK_FALSE(about->getValue<std::string>("description").empty());
    CHECK(about->getValue<std::string>("version") == TDG_PROJECT_VERSION);
    const Array::Ptr capabilities = about->getArray("capabilities");
    REQUIRE(capabilities);
    std::vector<std::string> names;
    for (unsigned i = 0; i < capabilities->size(); ++i) {
        names.push_back(capabilities->getElement<std::string>(i));
    }
    CHECK(names == std::vector<std::string>{"catalog", "state", "discover", "about", "log-based",
                                            "test", "stream-maps", "schema-flattening", "batch"});

    const Object::Ptr settings = about->getObject("settings");
    REQUIRE(settings);
    CHECK(settings->getValue<std::string>("type") == "object");
    const Object::Ptr properties = settings->getObject("properties");
    REQUIRE(properties);
    CHECK(properties->size() == settingSpecs().size());
    for (const auto& spec : settingSpecs()) {
        CAPTURE(spec.name);
        const Object::Ptr property = properties->getObject(spec.name);
        REQUIRE(property);
        CHECK(property->getValue<std::string>("type") == spec.type);
        CHECK(property->getValue<std::string>("description") == spec.description);
        CHECK(property->has("secret") == spec.secret);
        CHECK(property->has("writeOnly") == spec.secret);
        if (spec.secret) {
            CHECK(property->getValue<bool>("secret"));
            CHECK(property->getValue<bool>("writeOnly"));
        }
        CHECK(property->has("default") == spec.defaultJson.has_value());
    }
    const Array::Ptr required = settings->getArray("required");
    REQUIRE(required);
    CHECK(required->size() == 2);
    CHECK(required->getElement<std::string>(0) == "sql_dialect");
    CHECK(required->getElement<std::string>(1) == "tables");
    CHECK(properties->getObject("page_size")->getValue<int>("default") == 10000);
    CHECK(properties->getObject("page_size")->getValue<int>("minimum") == 1);
    CHECK(properties->getObject("add_sdc_deleted_at")->getValue<bool>("default"));
    CHECK(properties->getObject("diffgen_table")->getValue<std::string>("default") == "diffgen");
}

TEST_CASE("about: the tables setting carries its item schema") {
    const Object::Ptr tables =
        parseObject(settingsJsonSchema({}))->getObject("properties")->getObject("tables");
    REQUIRE(tables);
    CHECK(tables->getValue<int>("minItems") == 1);
    const Object::Ptr items = tables->getObject("items");
    REQUIRE(items);
    CHECK(items->getValue<std::string>("type") == "object");
    const Array::Ptr required = items->getArray("required");
    REQUIRE(required);
    CHECK(required->size() == 2);
    CHECK(required->getElement<std::string>(0) == "table_name");
    CHECK(required->getElement<std::string>(1) == "pk_column");
    const Object::Ptr properties = items->getObject("properties");
    CHECK(properties->getObject("table_name")->getValue<std::string>("type") == "string");
    // A column name, or a list of them for a composite key.
    const Array::Ptr pkTypes = properties->getObject("pk_column")->getArray("type");
    REQUIRE(pkTypes);
    CHECK(pkTypes->size() == 2);
    CHECK(pkTypes->getElement<std::string>(0) == "string");
    CHECK(pkTypes->getElement<std::string>(1) == "array");
    CHECK(properties->getObject("pk_column")->getObject("items")->getValue<std::string>("type") ==
          "string");
    const Object::Ptr mode = properties->getObject("mode");
    CHECK(mode->getValue<std::string>("default") == "full");
    CHECK(mode->getArray("enum")->size() == 2);
    CHECK(mode->getArray("enum")->getElement<std::string>(1) == "tombstones_only");
    const Object::Ptr startFrom = properties->getObject("start_from");
    CHECK(startFrom->getValue<std::string>("default") == "beginning");
    CHECK(startFrom->getArray("enum")->getElement<std::string>(1) == "snapshot");
}

TEST_CASE("about: the ssh_tunnel setting is an object of its keys, secrets marked") {
    const Object::Ptr tunnel =
        parseObject(settingsJsonSchema({}))->getObject("properties")->getObject("ssh_tunnel");
    REQUIRE(tunnel);
    CHECK(tunnel->getValue<std::string>("type") == "object");
    const Object::Ptr properties = tunnel->getObject("properties");
    REQUIRE(properties);
    CHECK(properties->size() == sshTunnelSettingSpecs().size());
    CHECK_FALSE(properties->getObject("enable")->getValue<bool>("default"));
    CHECK(properties->getObject("port")->getValue<int>("default") == 22);
    CHECK(properties->getObject("private_key")->getValue<bool>("secret"));
    CHECK(properties->getObject("private_key_password")->getValue<bool>("writeOnly"));
    CHECK_FALSE(properties->getObject("known_hosts")->has("secret"));
    CHECK_FALSE(properties->getObject("username")->has("secret"));
}

TEST_CASE("about: markdown is a README page with a settings table") {
    const std::string markdown = aboutText("markdown", {});
    CHECK(markdown.rfind("# `tap-diffgen`\n\n", 0) == 0);
    CHECK(contains(markdown,
                   "## Capabilities\n\n- `catalog`\n- `state`\n- `discover`\n"
                   "- `about`\n- `log-based`\n- `test`\n- `stream-maps`\n"
                   "- `schema-flattening`\n- `batch`\n"));
    CHECK(contains(markdown,
                   "## Settings\n\n| Setting | Required | Default | Description |\n"
                   "|:--------|:--------:|:-------:|:------------|\n"));
    for (const auto& spec : flatSettingSpecs()) {
        CAPTURE(spec.name);
        CHECK(contains(markdown,
                       "\n| " + spec.name + " | " + (spec.required ? "True" : "False") + " | "));
    }
    CHECK(contains(markdown, "\n| page_size | False | 10000 | "));
    CHECK(contains(markdown, "\n| add_sdc_deleted_at | False | True | "));
    CHECK(contains(markdown, "\n| diffgen_table | False | diffgen | "));
    CHECK(contains(markdown, "\n| host | False | None | "));
    CHECK(contains(markdown, "\n| tables[].mode | False | full | "));
    CHECK(contains(markdown, "\n| tables[].pk_column | True | None | "));
}

TEST_CASE("about: every description is one plain ASCII line") {
    for (const auto* specs : {&settingSpecs(), &tableSettingSpecs(), &sshTunnelSettingSpecs()}) {
        for (const auto& spec : *specs) {
            CAPTURE(spec.name);
            CHECK_FALSE(spec.description.empty());
            CHECK(spec.description.back() == '.');
            for (const char c : spec.description) {
                CHECK((c >= 0x20 && c < 0x7f && c != '|'));
            }
        }
    }
}

TEST_CASE("about: an unknown format is refused") {
    CHECK_THROWS_WITH_AS(aboutText("yaml", {}),
                         "unknown --format 'yaml' (expected text, json or markdown)",
                         std::invalid_argument);
}

TEST_CASE("about: the plugins' settings follow the tap's own in every format") {
    const std::string text = aboutText("text", {pluginSetting()});
    CHECK(contains(text,
                   "  - Name: ssl_key\n    Type: string\n"
                   "    Environment Variable: TAP_DIFFGEN_SSL_KEY\n"
                   "    Dialects: postgres, mysql\n"
                   "    Description: " +
                       pluginSetting().description + "\n"));
    CHECK(text.find("Name: ssl_key") > text.find("Name: ssh_tunnel.known_hosts"));
    CHECK_FALSE(contains(aboutText("text", {}), "ssl_key"));

    const Object::Ptr properties = parseObject(aboutText("json", {pluginSetting()}))
                                       ->getObject("settings")
                                       ->getObject("properties");
    REQUIRE(properties->has("ssl_key"));
    CHECK(properties->getObject("ssl_key")->getValue<std::string>("description") ==
          pluginSetting().description);

    CHECK(contains(aboutText("markdown", {pluginSetting()}),
                   "\n| ssl_key | False | None | Path of the client certificate's private key "
                   "file. (postgres, mysql) |\n"));
}

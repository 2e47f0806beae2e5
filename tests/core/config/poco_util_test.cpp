// The measured reasons docs/architecture.md gives for not reading the command line with
// Poco::Util's OptionProcessor nor the configuration through its LayeredConfiguration
// (Poco 1.11). Each case shows Poco's behaviour next to the tap's; should a Poco release change
// it, the case fails and the decision is due again.
#include <doctest/doctest.h>

#include <Poco/AutoPtr.h>
#include <Poco/Util/JSONConfiguration.h>
#include <Poco/Util/LayeredConfiguration.h>
#include <Poco/Util/MapConfiguration.h>
#include <Poco/Util/Option.h>
#include <Poco/Util/OptionProcessor.h>
#include <Poco/Util/OptionSet.h>
#include <Poco/Util/SystemConfiguration.h>

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "cli/command_line.hpp"
#include "config/tap_config.hpp"

using namespace tapdiffgen::core;

namespace {

using Poco::AutoPtr;
using Poco::Util::JSONConfiguration;
using Poco::Util::Option;
using Poco::Util::OptionProcessor;
using Poco::Util::OptionSet;

// The tap's options as an OptionSet: repeatable, as the tap lets a later one win.
OptionSet tapOptions() {
    OptionSet options;
    for (const char* name : {"config", "state", "catalog", "properties", "plugin-dir", "format"}) {
        options.addOption(Option(name, "").repeatable(true).argument("VALUE", true));
    }
    for (const char* name : {"discover", "about", "version", "list-plugins", "check-journal"}) {
        options.addOption(Option(name, "").repeatable(true));
    }
    options.addOption(Option("help", "h").repeatable(true));
    options.addOption(Option("test", "").repeatable(true).argument("KIND", false));
    return options;
}

// "name=value" for each option Poco recognises in `arguments`.
std::string pocoReading(const std::vector<std::string>& arguments) {
    const OptionSet options = tapOptions();
    OptionProcessor processor(options);
    processor.setUnixStyle(true);
    std::string reading;
    for (const auto& argument : arguments) {
        std::string name;
        std::string value;
        if (processor.process(argument, name, value) && !name.empty()) {
            reading += name + "=" + value + ";";
        }
    }
    processor.checkRequired();
    return reading;
}

std::string tapReading(std::vector<std::string> arguments) {
    std::vector<char*> argv{const_cast<char*>("tap-diffgen")};
    for (auto& argument : arguments) argv.push_back(argument.data());
    try {
        const CommandLine line = parseCommandLine(static_cast<int>(argv.size()), argv.data());
        return line.configs.empty() ? "" : "config=" + line.configs.front() + ";";
    } catch (const UsageError& e) {
        return e.what();
    }
}

// Poco's message for a command line it refuses.
std::string pocoError(const std::vector<std::string>& arguments) {
    try {
        pocoReading(arguments);
    } catch (const Poco::Exception& e) {
        return e.displayText();
    }
    return "(accepted)";
}

AutoPtr<JSONConfiguration> jsonConfiguration(const std::string& text) {
    std::istringstream in(text);
    return new JSONConfiguration(in);
}

}  // namespace

TEST_CASE("Poco::Util: OptionProcessor reads the Singer command lines as the tap does") {
    const std::vector<std::string> meltano{"--config", "a.json", "--config=ENV", "--about",
                                           "--format=json"};
    CHECK(pocoReading(meltano) == "config=a.json;config=ENV;about=;format=json;");
    CHECK(tapReading(meltano) == "config=a.json;");
    CHECK(pocoReading({"--test=schema"}) == "test=schema;");
}

TEST_CASE("Poco::Util: OptionProcessor takes an abbreviated, a case-folded or a colon option") {
    // Partial and case-insensitive matching cannot be turned off (OptionSet::getOption), so a
    // typo becomes another option instead of an error.
    for (const std::string option : {"--con", "--CONFIG", "--Config"}) {
        CAPTURE(option);
        CHECK(pocoReading({option, "a.json"}) == "config=a.json;");
        CHECK(tapReading({option, "a.json"}) == "unknown argument '" + option + "'");
    }
    CHECK(pocoReading({"--config:a.json"}) == "config=a.json;");
    CHECK(tapReading({"--config:a.json"}) == "unknown argument '--config:a.json'");
}

TEST_CASE("Poco::Util: OptionProcessor's errors are texts of its own") {
    CHECK(pocoError({"--bogus"}) == "Unknown option specified: bogus");
    CHECK(tapReading({"--bogus"}) == "unknown argument '--bogus'");
    CHECK(pocoError({"--config"}) == "Missing option argument: config requires VALUE");
    CHECK(tapReading({"--config"}) == "--config needs a value");
}

TEST_CASE("Poco::Util: JSONConfiguration reads a quoted number or boolean as the value itself") {
    const auto file = jsonConfiguration(R"({"page_size":"500","read_ahead":"false"})");
    const auto typed = jsonConfiguration(R"({"page_size":500,"read_ahead":false})");
    // Every value is text to AbstractConfiguration: the two files cannot be told apart.
    CHECK(file->getString("page_size") == typed->getString("page_size"));
    CHECK(file->getInt("page_size") == 500);
    CHECK_FALSE(file->getBool("read_ahead"));
    // The tap refuses the quoted one, as the JSON Schema --about publishes says.
    std::string refused;
    try {
        parseConfigObject(
            R"({"sql_dialect":"postgres","tables":[{"table_name":"a","pk_column":"id"}],)"
            R"("page_size":"500"})");
    } catch (const ConfigError& e) {
        refused = e.what();
    }
    CHECK(refused == "'500' is not of type 'integer' in config['page_size']");
}

TEST_CASE("Poco::Util: LayeredConfiguration mixes the entries of two files' tables") {
    AutoPtr<Poco::Util::LayeredConfiguration> layered = new Poco::Util::LayeredConfiguration;
    layered->add(jsonConfiguration(
                     R"({"tables":[{"table_name":"a","pk_column":"id"},)"
                     R"({"table_name":"b","pk_column":"id"}],"ssh_tunnel":{"host":"bastion"}})"),
                 0);
    // A later --config file wins: a lower priority number comes first.
    layered->add(jsonConfiguration(
                     R"({"tables":[{"table_name":"c","pk_column":"id"}],"ssh_tunnel":{"port":2}})"),
                 -1);
    // The later file's `tables` has one entry, yet a second one is still found, the earlier
    // file's: no merged document holds both answers.
    CHECK(layered->getString("tables[0].table_name") == "c");
    CHECK(layered->getString("tables[1].table_name") == "b");
    CHECK(layered->getString("tables").find("\"b\"") == std::string::npos);
    // An object setting whole is the later file's alone, its keys one by one are merged.
    CHECK(layered->getString("ssh_tunnel.host") == "bastion");
    CHECK(layered->getString("ssh_tunnel").find("bastion") == std::string::npos);
    // The environment over both, as TAP_DIFFGEN_TABLES gives it: JSON text, which a path
    // lookup does not enter, so the files' entries still answer.
    AutoPtr<Poco::Util::MapConfiguration> environment = new Poco::Util::MapConfiguration;
    environment->setString("tables", R"([{"table_name":"d","pk_column":"id"}])");
    layered->add(environment, -2);
    CHECK(layered->getString("tables").find("\"d\"") != std::string::npos);
    CHECK(layered->getString("tables[0].table_name") == "c");
}

TEST_CASE("Poco::Util: SystemConfiguration finds a variable by name but cannot list them") {
    ::setenv("TAP_DIFFGEN_POCO_PROBE", "700", 1);
    AutoPtr<Poco::Util::SystemConfiguration> system = new Poco::Util::SystemConfiguration;
    CHECK(system->getString("system.env.TAP_DIFFGEN_POCO_PROBE") == "700");
    Poco::Util::AbstractConfiguration::Keys keys;
    system->keys("system.env", keys);
    CHECK(keys.empty());
    ::unsetenv("TAP_DIFFGEN_POCO_PROBE");
}

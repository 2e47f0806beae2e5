// tap-diffgen(1) is generated from --help's parts and the settings catalogue: every option and
// every setting must reach it, in roff that man(1) reads as text rather than as requests.
#include <doctest/doctest.h>

#include <set>
#include <sstream>
#include <string>

#include "cli/command_line.hpp"
#include "cli/man_page.hpp"
#include "config/settings.hpp"

namespace {

using tapdiffgen::core::helpContent;
using tapdiffgen::core::manPage;

// The roff spelling of a literal: every '-' as the minus "\-".
std::string roff(const std::string& text) {
    std::string out;
    for (const char c : text) out += c == '-' ? std::string("\\-") : std::string(1, c);
    return out;
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("the man page describes every option of --help, in the help's own words") {
    const std::string page = manPage({});
    for (const auto& option : helpContent().options) {
        INFO(option.synopsis);
        const std::string flag = option.synopsis.substr(0, option.synopsis.find_first_of(" ["));
        CHECK(contains(page, ".TP\n\\fB" + roff(flag) + "\\fR"));
        CHECK(contains(page, roff(option.description)));
    }
}

TEST_CASE("the man page describes every setting and every key of a tables entry") {
    const std::string page = manPage({});
    for (const auto& spec : tapdiffgen::core::flatSettingSpecs()) {
        INFO(spec.name);
        CHECK(contains(page, ".TP\n\\fB" + roff(spec.name) + "\\fR ("));
        CHECK(contains(page, roff(spec.description)));
        CHECK(contains(page, "\\fB" + roff(tapdiffgen::core::settingEnvVar(spec.name)) + "\\fR"));
    }
    for (const auto& key : tapdiffgen::core::tableSettingSpecs()) {
        INFO(key.name);
        CHECK(contains(page, ".TP\n\\fB" + roff(key.name) + "\\fR ("));
    }
    CHECK(contains(page, "(string; secret, never printed)"));
}

TEST_CASE("the settings of the installed plugins follow, each saying which plugins declare it") {
    tapdiffgen::core::SettingSpec mode;
    mode.name = "ssl_mode";
    mode.type = "string";
    mode.description = "TLS mode of the connection to the database.";
    mode.allowed = {"disable", "require"};
    mode.dialects = {"postgres", "mysql"};
    const std::string page = manPage({mode});
    CHECK(contains(page, ".SS \"Settings of the dialect plugins\"\n"));
    CHECK(contains(page, ".TP\n\\fBssl_mode\\fR (string; postgres and mysql plugins)\n"));
    CHECK(contains(page, "One of disable or require."));
    CHECK(contains(page, "\\fBTAP_DIFFGEN_SSL_MODE\\fR"));
    CHECK_FALSE(contains(manPage({}), "Settings of the dialect plugins"));
}

TEST_CASE("every line of the man page that roff reads as a request is one the page means") {
    const std::set<std::string> requests = {".TH", ".SH", ".TP", ".PP", ".IP", ".RS", ".RE",  ".br",
                                            ".nf", ".fi", ".nh", ".ad", ".B",  ".SS", ".\\\""};
    tapdiffgen::core::SettingSpec channel;
    channel.name = "notify_channel";
    channel.type = "string";
    channel.description = "Channel to listen on.";
    channel.dialects = {"postgres"};
    std::istringstream lines(manPage({channel}));
    std::string line;
    int requestCount = 0;
    while (std::getline(lines, line)) {
        if (line.empty() || (line[0] != '.' && line[0] != '\'')) continue;
        INFO(line);
        CHECK(requests.count(line.substr(0, line.find(' '))) == 1);
        ++requestCount;
    }
    CHECK(requestCount > 50);
}

TEST_CASE("--man is parsed but, being for packaging only, not listed by --help") {
    char program[] = "tap-diffgen";
    char man[] = "--man";
    char* argv[] = {program, man};
    CHECK(tapdiffgen::core::parseCommandLine(2, argv).man);
    CHECK_FALSE(contains(tapdiffgen::core::helpText(), "--man"));
}

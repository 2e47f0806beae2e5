// metrics_port and metrics_address: their defaults (no endpoint, loopback) and the one-line
// errors that name them.
#include <doctest/doctest.h>

#include "config/settings.hpp"
#include "config/tap_config.hpp"
#include "core/config/config_test_support.hpp"

using tapdiffgen::core::findSettingSpec;
using tapdiffgen::core::parseConfigObject;
using tapdiffgen::core::TapConfig;
using tapdiffgen::core::testing::minimalConfig;
using tapdiffgen::core::testing::parseErrorOf;

TEST_CASE("metrics settings: off and on loopback unless set") {
    const TapConfig untouched;
    CHECK(untouched.metricsPort == 0);
    CHECK(untouched.metricsAddress == "127.0.0.1");
    CHECK_FALSE(findSettingSpec("metrics_port")->defaultJson.has_value());
    CHECK(*findSettingSpec("metrics_address")->defaultJson == "\"127.0.0.1\"");
    const TapConfig config = parseConfigObject(minimalConfig());
    CHECK(config.metricsPort == 0);
    CHECK(config.metricsAddress == "127.0.0.1");
}

TEST_CASE("metrics settings: given values are read") {
    const TapConfig config =
        parseConfigObject(minimalConfig(R"(,"metrics_port":9464,"metrics_address":"0.0.0.0")"));
    CHECK(config.metricsPort == 9464);
    CHECK(config.metricsAddress == "0.0.0.0");
}

TEST_CASE("metrics settings: a bad value is one line naming the setting") {
    CHECK(parseErrorOf(minimalConfig(R"(,"metrics_port":70000)")) ==
          "70000 is greater than the maximum of 65535 in config['metrics_port']");
    CHECK(parseErrorOf(minimalConfig(R"(,"metrics_port":0)")) ==
          "0 is less than the minimum of 1 in config['metrics_port']");
    CHECK(parseErrorOf(minimalConfig(R"(,"metrics_port":"9464x")")) ==
          "'9464x' is not of type 'integer' in config['metrics_port']");
    CHECK(parseErrorOf(minimalConfig(R"(,"metrics_address":"localhost")")) ==
          "'localhost' is not an IPv4 address (such as 127.0.0.1, or 0.0.0.0 for every "
          "interface) in config['metrics_address']");
    CHECK(parseErrorOf(minimalConfig(R"(,"metrics_address":"::1")")) ==
          "'::1' is not an IPv4 address (such as 127.0.0.1, or 0.0.0.0 for every interface) in "
          "config['metrics_address']");
}

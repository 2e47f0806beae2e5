// MetricsEndpoint: a port it cannot listen on is a configuration error naming metrics_port.
#include "metrics/metrics_endpoint.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

#include "config/tap_config.hpp"

using tapdiffgen::core::ConfigError;
using tapdiffgen::core::MetricsEndpoint;

namespace {

// A port of the tests' range (TDG_TEST_METRICS_PORT, as tests/servers/prometheus.sh reads it),
// one above the tap's so that a running e2e test does not collide.
int testPort() {
    const char* port = std::getenv("TDG_TEST_METRICS_PORT");
    return (port != nullptr && *port != '\0' ? std::atoi(port) : 59464) + 1;
}

}  // namespace

TEST_CASE("metrics endpoint: a port in use is refused with one line naming metrics_port") {
    const int port = testPort();
    MetricsEndpoint first("127.0.0.1", port);
    try {
        MetricsEndpoint second("127.0.0.1", port);
        FAIL("a second endpoint listened on the same port");
    } catch (const ConfigError& error) {
        const std::string message = error.what();
        CHECK(message == "metrics_port " + std::to_string(port) +
                             ": cannot listen on 127.0.0.1:" + std::to_string(port) +
                             " for the metrics endpoint: Address already in use");
    }
}

TEST_CASE("metrics endpoint: an address of no interface of this host is refused") {
    CHECK_THROWS_WITH_AS(MetricsEndpoint("192.0.2.1", testPort()),
                         doctest::Contains("metrics_port"), ConfigError);
}

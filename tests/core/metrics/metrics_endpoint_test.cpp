// MetricsEndpoint: a port it cannot listen on is a configuration error naming metrics_port.
#include "metrics/metrics_endpoint.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <string>

#include "config/tap_config.hpp"
#include "support/listening_socket.hpp"

using tapdiffgen::core::ConfigError;
using tapdiffgen::core::MetricsEndpoint;
using tapdiffgen::testing::ListeningSocket;

TEST_CASE("metrics endpoint: a port in use is refused with one line naming metrics_port") {
    const ListeningSocket taken;
    const std::string port = std::to_string(taken.port());
    try {
        MetricsEndpoint endpoint("127.0.0.1", taken.port());
        FAIL("the endpoint listened on a port in use");
    } catch (const ConfigError& error) {
        CHECK(std::string(error.what()) == "metrics_port " + port +
                                               ": cannot listen on 127.0.0.1:" + port +
                                               " for the metrics endpoint: Address already in use");
    }
}

TEST_CASE("metrics endpoint: an address of no interface of this host is refused") {
    const ListeningSocket free;
    CHECK_THROWS_WITH_AS(MetricsEndpoint("192.0.2.1", free.port()),
                         doctest::Contains("metrics_port"), ConfigError);
}

TEST_CASE("metrics endpoint: it stops at once, not at its listener's next poll") {
    int port = 0;
    {
        const ListeningSocket probe;
        port = probe.port();
    }
    const auto started = std::chrono::steady_clock::now();
    { MetricsEndpoint endpoint("127.0.0.1", port); }
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;
    // civetweb polls its listening socket for 2 s at a time.
    CHECK(took.count() < 1.0);
}

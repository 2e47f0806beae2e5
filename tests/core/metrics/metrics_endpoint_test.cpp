// MetricsEndpoint: a port it cannot listen on is a configuration error naming metrics_port.
#include "metrics/metrics_endpoint.hpp"

#include <doctest/doctest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>

#include "config/tap_config.hpp"

using tapdiffgen::core::ConfigError;
using tapdiffgen::core::MetricsEndpoint;

namespace {

// A socket listening on a loopback port the system chose, so that no other test's client
// holds it by chance.
class Listener {
public:
    Listener() : fd_(::socket(AF_INET, SOCK_STREAM, 0)) {
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        REQUIRE(::bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0);
        REQUIRE(::listen(fd_, 1) == 0);
        socklen_t size = sizeof(address);
        REQUIRE(::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &size) == 0);
        port_ = ntohs(address.sin_port);
    }
    ~Listener() { ::close(fd_); }
    int port() const { return port_; }

private:
    int fd_;
    int port_ = 0;
};

}  // namespace

TEST_CASE("metrics endpoint: a port in use is refused with one line naming metrics_port") {
    const Listener taken;
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
    const Listener free;
    CHECK_THROWS_WITH_AS(MetricsEndpoint("192.0.2.1", free.port()),
                         doctest::Contains("metrics_port"), ConfigError);
}

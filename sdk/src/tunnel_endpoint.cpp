#include "tap-diffgen/sdk/tunnel_endpoint.hpp"

#include "tap-diffgen/sdk/errors.hpp"

namespace tapdiffgen::sdk {

std::optional<TcpEndpoint> tunnelEndpoint(const ConnectOptions& options) {
    const bool hasHost = options.has("connect_host");
    if (hasHost != options.has("connect_port")) {
        throw invalidArgument("connect_host and connect_port must be given together");
    }
    if (!hasHost) return std::nullopt;
    const long long port = options.getInt("connect_port", 0);
    if (port < 1 || port > 65535) {
        throw invalidArgument("connect_port must be between 1 and 65535");
    }
    return TcpEndpoint{options.get("connect_host"), static_cast<int>(port)};
}

void rejectTunnel(const ConnectOptions& options, const std::string& dialect) {
    if (options.has("connect_host") || options.has("connect_port")) {
        throw invalidArgument(dialect +
                              " does not connect over TCP: set ssh_tunnel.enable to false");
    }
}

}  // namespace tapdiffgen::sdk

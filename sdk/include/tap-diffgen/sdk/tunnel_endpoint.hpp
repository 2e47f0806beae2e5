// Where a driver opens its TCP connection when the engine tunnels it (dialect_abi.h, "SSH
// tunnels"): the engine owns the tunnel, a driver only connects to its local end.
#pragma once

#include <optional>
#include <string>

#include "tap-diffgen/sdk/types.hpp"

namespace tapdiffgen::sdk {

/// A TCP endpoint given as numbers, e.g. 127.0.0.1 and the port of the tunnel's local end.
struct TcpEndpoint {
    std::string address;
    int port = 0;
};

/// connect_host and connect_port when the engine tunnels the connection, nullopt otherwise.
/// `host` then still names the database, for TLS name verification. Throws
/// DriverError(TDG_INVALID_ARGUMENT) when only one of them is given or the port is not a port.
std::optional<TcpEndpoint> tunnelEndpoint(const ConnectOptions& options);

/// For a dialect that does not connect over TCP: throws DriverError(TDG_INVALID_ARGUMENT)
/// naming the dialect when the engine tunnels the connection.
void rejectTunnel(const ConnectOptions& options, const std::string& dialect);

}  // namespace tapdiffgen::sdk

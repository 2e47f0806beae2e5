// The connection settings the MySQL dialect understands, parsed once from the tap's options.
#pragma once

#include <optional>
#include <string>

#include "tap-diffgen/sdk/declared_settings.hpp"
#include "tap-diffgen/sdk/tunnel_endpoint.hpp"
#include "tap-diffgen/sdk/types.hpp"

namespace tapdiffgen::mysql {

/// The settings of the tap's configuration that belong to this plugin: the TLS settings.
const sdk::DeclaredSettings& pluginSettings();

/// libpq's names, because users of the PostgreSQL dialect already know them.
enum class SslMode { Disable, Prefer, Require, VerifyCa, VerifyFull };

struct Settings {
    std::string host;  // empty: the client library's default (localhost, unix socket)
    unsigned port = 3306;
    std::string user;
    std::string password;
    std::string database;  // empty: no default database
    unsigned connectTimeoutSeconds = 10;
    SslMode sslMode = SslMode::Prefer;
    std::string sslRootCert;
    std::string sslCert;
    std::string sslKey;
    /// Set when the engine tunnels the connection: the socket goes there instead of host:port.
    std::optional<sdk::TcpEndpoint> tunnel;

    /// Throws sdk::DriverError(TDG_INVALID_ARGUMENT) naming the bad setting.
    static Settings fromOptions(const sdk::ConnectOptions& options);

    /// "host:port" for messages.
    std::string endpoint() const;
    /// Where the TCP connection goes: the tunnel's local end, or host and port.
    const char* connectHost() const;
    unsigned connectPort() const;
};

const char* sslModeName(SslMode mode);

}  // namespace tapdiffgen::mysql

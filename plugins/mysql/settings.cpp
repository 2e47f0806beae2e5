#include "settings.hpp"

#include <string>
#include <vector>

#include "tap-diffgen/sdk/errors.hpp"

namespace tapdiffgen::mysql {
namespace {

struct SslModeName {
    const char* name;
    SslMode mode;
};

// libpq's spellings and MySQL's own (--ssl-mode=VERIFY_IDENTITY), so either habit works; the
// tap checks ssl_mode against exactly these before connecting.
constexpr SslModeName kSslModeNames[] = {
    {"disable", SslMode::Disable},        {"prefer", SslMode::Prefer},
    {"require", SslMode::Require},        {"verify-ca", SslMode::VerifyCa},
    {"verify-full", SslMode::VerifyFull}, {"DISABLED", SslMode::Disable},
    {"PREFERRED", SslMode::Prefer},       {"REQUIRED", SslMode::Require},
    {"VERIFY_CA", SslMode::VerifyCa},     {"VERIFY_IDENTITY", SslMode::VerifyFull},
};

std::vector<std::string> sslModeNames() {
    std::vector<std::string> names;
    for (const auto& entry : kSslModeNames) names.emplace_back(entry.name);
    return names;
}

SslMode parseSslMode(const std::string& text) {
    for (const auto& entry : kSslModeNames) {
        if (text == entry.name) return entry.mode;
    }
    // Unreachable through connect(), which checks the declaration first.
    throw sdk::invalidArgument("setting 'ssl_mode' has an unknown value");
}

unsigned boundedInt(const sdk::ConnectOptions& options, const std::string& key, long long fallback,
                    long long low, long long high) {
    return static_cast<unsigned>(options.getInt(key, fallback, low, high));
}

}  // namespace

const sdk::DeclaredSettings& pluginSettings() {
    static const sdk::DeclaredSettings settings(sdk::tlsSettings(sslModeNames(), "prefer"));
    return settings;
}

Settings Settings::fromOptions(const sdk::ConnectOptions& options) {
    Settings settings;
    settings.host = options.get("host");
    settings.port = boundedInt(options, "port", 3306, 1, 65535);
    settings.user = options.get("user");
    settings.password = options.get("password");
    settings.database = options.get("database");
    settings.connectTimeoutSeconds = boundedInt(options, "connect_timeout", 10, 1, 3600);
    settings.sslMode = parseSslMode(options.get("ssl_mode", "prefer"));
    settings.sslRootCert = options.get("ssl_root_cert");
    settings.sslCert = options.get("ssl_cert");
    settings.sslKey = options.get("ssl_key");
    if (settings.sslMode == SslMode::VerifyCa && settings.sslRootCert.empty()) {
        throw sdk::invalidArgument("ssl_mode verify-ca needs ssl_root_cert (the CA file)");
    }
    if (settings.sslCert.empty() != settings.sslKey.empty()) {
        throw sdk::invalidArgument("ssl_cert and ssl_key must be given together");
    }
    settings.tunnel = sdk::tunnelEndpoint(options);
    // Connector/C checks the certificate against the name it connects to, which through a
    // tunnel is 127.0.0.1, and has no option to name the server otherwise.
    if (settings.tunnel && settings.sslMode == SslMode::VerifyFull) {
        throw sdk::invalidArgument(
            "ssl_mode verify-full cannot check the server's name through an SSH tunnel with "
            "MariaDB Connector/C; use ssl_mode verify-ca with ssl_root_cert");
    }
    return settings;
}

const char* Settings::connectHost() const {
    if (tunnel) return tunnel->address.c_str();
    return host.empty() ? nullptr : host.c_str();
}

unsigned Settings::connectPort() const {
    return tunnel ? static_cast<unsigned>(tunnel->port) : port;
}

std::string Settings::endpoint() const {
    return (host.empty() ? std::string("localhost") : host) + ":" + std::to_string(port);
}

const char* sslModeName(SslMode mode) {
    switch (mode) {
        case SslMode::Disable:
            return "disable";
        case SslMode::Prefer:
            return "prefer";
        case SslMode::Require:
            return "require";
        case SslMode::VerifyCa:
            return "verify-ca";
        case SslMode::VerifyFull:
            return "verify-full";
    }
    return "?";
}

}  // namespace tapdiffgen::mysql

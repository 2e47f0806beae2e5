#include "settings.hpp"

#include <algorithm>
#include <cctype>

#include "tap-diffgen/sdk/errors.hpp"

namespace tapdiffgen::mysql {
namespace {

std::string normalized(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) {
        return c == '_' ? '-' : static_cast<char>(std::tolower(c));
    });
    return text;
}

// Accepts libpq's spellings and MySQL's own (--ssl-mode=VERIFY_IDENTITY), so either habit works.
SslMode parseSslMode(const std::string& text) {
    std::string mode = normalized(text);
    if (mode == "disable" || mode == "disabled") return SslMode::Disable;
    if (mode == "prefer" || mode == "preferred") return SslMode::Prefer;
    if (mode == "require" || mode == "required") return SslMode::Require;
    if (mode == "verify-ca") return SslMode::VerifyCa;
    if (mode == "verify-full" || mode == "verify-identity") return SslMode::VerifyFull;
    throw sdk::invalidArgument(
        "setting 'ssl_mode' must be one of disable, prefer, require, "
        "verify-ca, verify-full (got '" +
        text + "')");
}

unsigned boundedInt(const sdk::ConnectOptions& options, const std::string& key, long long fallback,
                    long long low, long long high) {
    return static_cast<unsigned>(options.getInt(key, fallback, low, high));
}

}  // namespace

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

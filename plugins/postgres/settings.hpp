// The libpq keyword/value arrays for one connection, built from the tap's settings. Values are
// never spliced into a conninfo string, so a password with spaces or quotes reaches the server
// exactly as written.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "tap-diffgen/sdk/declared_settings.hpp"
#include "tap-diffgen/sdk/types.hpp"

namespace tapdiffgen::postgres {

/// The settings of the tap's configuration that belong to this plugin: the TLS settings and
/// notify_channel.
const sdk::DeclaredSettings& pluginSettings();

class ConnectParams {
public:
    /// Throws DriverError(TDG_INVALID_ARGUMENT) for a bad port or timeout (ssl_mode is checked
    /// against pluginSettings() before a connection is made).
    explicit ConnectParams(const sdk::ConnectOptions& options);
    ConnectParams(const ConnectParams&) = delete;
    ConnectParams& operator=(const ConnectParams&) = delete;

    /// NULL-terminated, parallel arrays for PQconnectStartParams; valid while this object is.
    const char* const* keywords() const { return keywords_.data(); }
    const char* const* values() const { return values_.data(); }

    const std::string& password() const { return password_; }
    int connectTimeoutSeconds() const { return connectTimeout_; }
    /// "host:port/database" of the settings (not a tunnel's local end), for messages.
    std::string describe() const;

private:
    void add(const char* keyword, std::string value);

    std::vector<std::pair<std::string, std::string>> pairs_;
    std::vector<const char*> keywords_;
    std::vector<const char*> values_;
    std::string password_;
    std::string databasePort_;  // as the settings give it, also when a tunnel is used
    int connectTimeout_ = 10;
};

}  // namespace tapdiffgen::postgres

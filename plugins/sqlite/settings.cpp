#include "settings.hpp"

#include <array>

#include "tap-diffgen/sdk/errors.hpp"
#include "tap-diffgen/sdk/tunnel_endpoint.hpp"

namespace tapdiffgen::sqlite {
namespace {

constexpr long long kMaxTimeoutSeconds = 3600;

}  // namespace

Settings Settings::from(const sdk::ConnectOptions& options) {
    sdk::rejectTunnel(options, "sqlite");
    Settings settings;
    settings.path = options.get("database");
    if (settings.path.empty()) {
        throw sdk::invalidArgument("setting 'database' (the SQLite database file) is required");
    }
    // A writer holds its lock only while it commits, so connect_timeout is a generous bound on
    // how long a read may wait for one, with no extra setting to learn.
    long long seconds = options.getInt("connect_timeout", 10, 1, kMaxTimeoutSeconds);
    settings.busyTimeoutMs = static_cast<int>(seconds * 1000);

    static constexpr std::array<const char*, 8> kServerSettings = {
        "host", "port", "user", "password", "ssl_mode", "ssl_root_cert", "ssl_cert", "ssl_key"};
    for (const char* key : kServerSettings) {
        if (options.has(key)) {
            options.debug(std::string("sqlite: setting '") + key +
                          "' does not apply to a database file and is ignored");
        }
    }
    return settings;
}

}  // namespace tapdiffgen::sqlite

#include "settings.hpp"

#include "tap-diffgen/sdk/errors.hpp"
#include "tap-diffgen/sdk/tunnel_endpoint.hpp"

namespace tapdiffgen::postgres {
namespace {

// Read-only so nothing the tap runs can write; UTC and ISO styles so every date and time
// arrives in one text form whatever the server's defaults; extra_float_digits=1 makes
// PostgreSQL 12+ print the shortest text that reads back as the same float.
constexpr const char* kSessionOptions =
    "-c default_transaction_read_only=on -c TimeZone=UTC -c DateStyle=ISO,YMD "
    "-c IntervalStyle=postgres -c extra_float_digits=1 -c bytea_output=hex";

int boundedInt(const sdk::ConnectOptions& options, const char* key, long long fallback,
               long long low, long long high) {
    return static_cast<int>(options.getInt(key, fallback, low, high));
}

}  // namespace

const sdk::DeclaredSettings& pluginSettings() {
    static const sdk::DeclaredSettings settings([] {
        // libpq's own sslmode values; ssl_mode is checked against them before connecting.
        auto declared = sdk::tlsSettings(
            {"disable", "allow", "prefer", "require", "verify-ca", "verify-full"}, "prefer");
        declared.emplace_back("notify_channel", sdk::SettingType::String,
                              "Channel to LISTEN on while following (see the optional trigger "
                              "in postgres.sql of the diffgen SQL): a notification wakes the "
                              "tap at once; without one it polls.");
        return declared;
    }());
    return settings;
}

ConnectParams::ConnectParams(const sdk::ConnectOptions& options)
    : password_(options.get("password")),
      connectTimeout_(boundedInt(options, "connect_timeout", 10, 1, 3600)) {
    int port = boundedInt(options, "port", 5432, 1, 65535);
    databasePort_ = std::to_string(port);
    add("host", options.get("host"));
    // Through the engine's tunnel libpq connects to hostaddr and still verifies `host`.
    if (const auto tunnel = sdk::tunnelEndpoint(options)) {
        add("hostaddr", tunnel->address);
        port = tunnel->port;
    }
    add("port", std::to_string(port));
    add("user", options.get("user"));
    add("password", password_);
    add("dbname", options.get("database"));
    add("connect_timeout", std::to_string(connectTimeout_));
    add("sslmode", options.get("ssl_mode", "prefer"));
    add("sslrootcert", options.get("ssl_root_cert"));
    add("sslcert", options.get("ssl_cert"));
    add("sslkey", options.get("ssl_key"));
    add("application_name", "tap-diffgen");
    add("client_encoding", "UTF8");
    add("options", kSessionOptions);

    for (const auto& [keyword, value] : pairs_) {
        keywords_.push_back(keyword.c_str());
        values_.push_back(value.c_str());
    }
    keywords_.push_back(nullptr);
    values_.push_back(nullptr);
}

void ConnectParams::add(const char* keyword, std::string value) {
    // An absent setting keeps libpq's own default (environment, service file, .pgpass).
    if (value.empty()) return;
    pairs_.emplace_back(keyword, std::move(value));
}

std::string ConnectParams::describe() const {
    std::string host = "localhost", port = databasePort_, database;
    for (const auto& [keyword, value] : pairs_) {
        if (keyword == "host") host = value;
        if (keyword == "dbname") database = value;
    }
    return host + ":" + port + (database.empty() ? "" : "/" + database);
}

}  // namespace tapdiffgen::postgres

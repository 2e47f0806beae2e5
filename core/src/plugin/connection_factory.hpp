// Opens the connections of one run: the plugin the configuration names, its connect options,
// and, when ssh_tunnel is enabled, a tunnel of its own for each connection. The run's main
// session, the session that reads pages ahead and the sessions that share re-pulls are opened
// here alike, for the first time and after a lost connection; the rest of the engine never
// sees a tunnel or a connect option.
#pragma once

#include <memory>

#include "config/tap_config.hpp"
#include "plugin/dialect_connection.hpp"
#include "plugin/plugin.hpp"

namespace tapdiffgen::core {

/// What a session is for; only the main one is announced at info level.
enum class SessionRole { Main, ReadAhead, Repull, HeadProbe };

class ConnectionFactory {
public:
    ConnectionFactory(std::shared_ptr<const Plugin> plugin, const TapConfig& config)
        : plugin_(std::move(plugin)), config_(config) {}

    /// A new connection (and its tunnel); throws DialectError whose message starts with
    /// "cannot connect".
    std::unique_ptr<DialectConnection> connect(SessionRole role = SessionRole::Main) const;

private:
    std::shared_ptr<const Plugin> plugin_;
    const TapConfig& config_;
};

}  // namespace tapdiffgen::core

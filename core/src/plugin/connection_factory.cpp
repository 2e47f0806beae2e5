#include "plugin/connection_factory.hpp"

#include "tunnel/ssh_tunnel.hpp"
#include "tunnel/tunnel_error.hpp"
#include "util/log.hpp"

namespace tapdiffgen::core {
namespace {

void forwardDriverLog(int level, const std::string& message) { log::write(level, message); }

TdgStatus statusOf(TunnelError::Kind kind) {
    switch (kind) {
        case TunnelError::Kind::Network:
            return TDG_IO;
        case TunnelError::Kind::Authentication:
            return TDG_UNAUTHENTICATED;
        case TunnelError::Kind::Refused:
            return TDG_UNAUTHORIZED;
        case TunnelError::Kind::Config:
            break;
    }
    return TDG_INVALID_ARGUMENT;
}

std::shared_ptr<SshTunnel> openTunnel(const TapConfig& config) {
    try {
        auto tunnel =
            std::make_shared<SshTunnel>(*config.sshTunnel, static_cast<int>(config.connectTimeout),
                                        [](const std::string& message) { log::warning(message); });
        log::info("SSH tunnel through bastion " + tunnel->bastion() + " to " +
                  config.sshTunnel->targetHost + ":" +
                  std::to_string(config.sshTunnel->targetPort) + " listens on " +
                  tunnel->localHost() + ":" + std::to_string(tunnel->localPort()));
        return tunnel;
    } catch (const TunnelError& failure) {
        throw DialectError(statusOf(failure.kind()), failure.what(), "", failure.retryable());
    }
}

// The connect options the ABI defines for a tunnel: the driver opens its TCP connection to
// connect_host:connect_port and keeps host for TLS name verification. Only the engine sets
// them, so a user's setting of the same name is dropped.
std::vector<std::pair<std::string, std::string>> connectOptions(const TapConfig& config,
                                                                const SshTunnel* tunnel) {
    std::vector<std::pair<std::string, std::string>> options;
    for (const auto& option : config.connectionOptions) {
        if (option.first != "connect_host" && option.first != "connect_port") {
            options.push_back(option);
        }
    }
    if (tunnel != nullptr) {
        options.emplace_back("connect_host", tunnel->localHost());
        options.emplace_back("connect_port", std::to_string(tunnel->localPort()));
    }
    return options;
}

void announce(SessionRole role, DialectConnection& connection) {
    switch (role) {
        case SessionRole::Main:
            log::info("connected to " + connection.serverVersion());
            return;
        case SessionRole::ReadAhead:
            log::debug("second session, for reading ahead, connected");
            return;
        case SessionRole::Repull:
            log::debug("another session, for re-pulling rows, connected");
            return;
        case SessionRole::HeadProbe:
            log::debug("a session that reads the log's head for the metrics connected");
            return;
    }
}

}  // namespace

std::unique_ptr<DialectConnection> ConnectionFactory::connect(SessionRole role) const {
    log::debug("dialect plugin " + plugin_->dialect() + " from " + plugin_->path());
    std::unique_ptr<DialectConnection> connection;
    try {
        std::shared_ptr<SshTunnel> tunnel;
        if (config_.sshTunnel) tunnel = openTunnel(config_);
        connection = std::make_unique<DialectConnection>(
            plugin_, connectOptions(config_, tunnel.get()), &forwardDriverLog);
        connection->keepUntilClosed(tunnel);
    } catch (const DialectError& failure) {
        std::string message = failure.what();
        if (message.rfind("cannot connect", 0) != 0) message = "cannot connect: " + message;
        throw DialectError(failure.status(), message, failure.sqlstate(), failure.retryable());
    }
    announce(role, *connection);
    return connection;
}

}  // namespace tapdiffgen::core

// An SSH tunnel to the database: a local endpoint on 127.0.0.1 whose connections the bastion
// forwards to the database's host and port. One per database connection; a reconnect builds a
// new one.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "config/ssh_tunnel_settings.hpp"

namespace tapdiffgen::core {

class SshSession;
class LocalListener;
class ForwardingLoop;

class SshTunnel {
public:
    using Warn = std::function<void(const std::string&)>;

    /// Logs in to the bastion and has it open a first forward to the database, so that every
    /// failure surfaces here as one TunnelError; then starts forwarding.
    SshTunnel(const SshTunnelSettings& settings, int timeoutSeconds, Warn warn);
    ~SshTunnel();
    SshTunnel(const SshTunnel&) = delete;
    SshTunnel& operator=(const SshTunnel&) = delete;

    /// Where the driver connects: always the numeric loopback address.
    std::string localHost() const { return "127.0.0.1"; }
    int localPort() const;
    const std::string& bastion() const;

private:
    std::unique_ptr<SshSession> session_;
    std::unique_ptr<LocalListener> listener_;
    std::unique_ptr<ForwardingLoop> loop_;  // last: stops before the others go
};

}  // namespace tapdiffgen::core

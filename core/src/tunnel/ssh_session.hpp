// One logged-in SSH session with the bastion, and the channels it forwards.
#pragma once

#include <libssh/libssh.h>

#include <functional>
#include <string>

#include "config/ssh_tunnel_settings.hpp"

namespace tapdiffgen::core {

/// An open direct-tcpip channel; closed and freed with this object.
class SshChannel {
public:
    explicit SshChannel(ssh_channel channel = nullptr) : channel_(channel) {}
    SshChannel(SshChannel&& other) noexcept : channel_(other.channel_) { other.channel_ = nullptr; }
    SshChannel& operator=(SshChannel&& other) noexcept;
    SshChannel(const SshChannel&) = delete;
    SshChannel& operator=(const SshChannel&) = delete;
    ~SshChannel();

    ssh_channel get() const { return channel_; }
    explicit operator bool() const { return channel_ != nullptr; }

private:
    ssh_channel channel_;
};

class SshSession {
public:
    /// Imports the key, connects to the bastion, checks its host key and logs in, waiting at
    /// most timeoutSeconds for each step. Throws TunnelError.
    SshSession(const SshTunnelSettings& settings, int timeoutSeconds,
               const std::function<void(const std::string&)>& warn);
    ~SshSession();
    SshSession(const SshSession&) = delete;
    SshSession& operator=(const SshSession&) = delete;

    ssh_session get() const { return session_; }
    /// "host:port" of the bastion, for messages.
    const std::string& bastion() const { return bastion_; }

    /// A channel from the bastion to host:port. Throws TunnelError(Refused) when the bastion
    /// does not forward for us, TunnelError(Network) when it cannot reach the target.
    SshChannel openForward(const std::string& host, int port);

private:
    void connectAndCheckHostKey(const SshTunnelSettings& settings, int timeoutSeconds,
                                const std::function<void(const std::string&)>& warn);
    void logIn(const SshTunnelSettings& settings);
    /// ssh_channel_open_forward, without blocking in libssh: SSH_OK, SSH_ERROR, or SSH_AGAIN
    /// when the bastion has not answered within the timeout.
    int openWithQuickAcks(ssh_channel channel, const std::string& host, int port);

    ssh_session session_ = nullptr;
    std::string bastion_;
    int timeoutSeconds_;
};

}  // namespace tapdiffgen::core

#include "tunnel/ssh_tunnel.hpp"

#include "tunnel/forwarding_loop.hpp"
#include "tunnel/local_listener.hpp"
#include "tunnel/ssh_session.hpp"

namespace tapdiffgen::core {

SshTunnel::SshTunnel(const SshTunnelSettings& settings, int timeoutSeconds, Warn warn)
    : session_(std::make_unique<SshSession>(settings, timeoutSeconds, warn)),
      listener_(std::make_unique<LocalListener>()) {
    SshChannel first = session_->openForward(settings.targetHost, settings.targetPort);
    loop_ =
        std::make_unique<ForwardingLoop>(*session_, *listener_, std::move(first),
                                         settings.targetHost, settings.targetPort, std::move(warn));
}

SshTunnel::~SshTunnel() { loop_.reset(); }

int SshTunnel::localPort() const { return listener_->port(); }

const std::string& SshTunnel::bastion() const { return session_->bastion(); }

}  // namespace tapdiffgen::core

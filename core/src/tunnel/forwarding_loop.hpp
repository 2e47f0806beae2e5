// The thread that moves bytes between the driver's sockets and their SSH channels.
#pragma once

#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "tunnel/local_listener.hpp"
#include "tunnel/ssh_session.hpp"

namespace tapdiffgen::core {

class ForwardingLoop {
public:
    using Warn = std::function<void(const std::string&)>;

    /// From now on the session and the listener are used by the loop's thread only, until this
    /// object is destroyed. `firstChannel` serves the first accepted connection; later ones
    /// get a channel of their own to targetHost:targetPort.
    ForwardingLoop(SshSession& session, LocalListener& listener, SshChannel firstChannel,
                   std::string targetHost, int targetPort, Warn warn);
    ~ForwardingLoop();
    ForwardingLoop(const ForwardingLoop&) = delete;
    ForwardingLoop& operator=(const ForwardingLoop&) = delete;

private:
    struct Link {
        int fd;
        SshChannel channel;
    };

    void run();
    void acceptLink();
    /// false once the link is finished (either side closed or failed).
    bool clientToChannel(Link& link);
    bool channelToClient(Link& link);
    /// Moves everything libssh holds or the SSH socket has ready to the driver's sockets.
    void drainBastion();
    /// The SSH session died: every driver socket is closed, so the driver sees a lost
    /// connection and reconnects through a new tunnel.
    void abandon(const std::string& why);
    void closeLink(Link& link);

    SshSession& session_;
    LocalListener& listener_;
    SshChannel firstChannel_;
    std::string targetHost_;
    int targetPort_;
    Warn warn_;
    std::vector<Link> links_;
    std::vector<char> buffer_;
    /// libssh counts the bytes it reads from the SSH socket here.
    ssh_counter_struct received_{};
    int wake_[2] = {-1, -1};
    std::thread thread_;
};

}  // namespace tapdiffgen::core

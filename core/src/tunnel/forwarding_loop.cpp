#include "tunnel/forwarding_loop.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fcntl.h>
#include <algorithm>
#include <cerrno>

#include "tunnel/quick_ack.hpp"
#include "tunnel/tunnel_error.hpp"

namespace tapdiffgen::core {
namespace {

// A libssh channel packet carries at most 32 KiB; two of them per read or write call.
constexpr size_t kChunkBytes = 64 * 1024;

bool sendAll(int fd, const char* data, size_t size) {
    while (size > 0) {
        const ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        data += n;
        size -= static_cast<size_t>(n);
    }
    return true;
}

}  // namespace

ForwardingLoop::ForwardingLoop(SshSession& session, LocalListener& listener,
                               SshChannel firstChannel, std::string targetHost, int targetPort,
                               Warn warn)
    : session_(session),
      listener_(listener),
      firstChannel_(std::move(firstChannel)),
      targetHost_(std::move(targetHost)),
      targetPort_(targetPort),
      warn_(std::move(warn)),
      buffer_(kChunkBytes) {
    if (::pipe2(wake_, O_CLOEXEC) != 0) {
        throw TunnelError(TunnelError::Kind::Config, "cannot create the SSH tunnel's wake pipe");
    }
    ssh_set_counters(session_.get(), &received_, nullptr);
    thread_ = std::thread([this] { run(); });
}

ForwardingLoop::~ForwardingLoop() {
    const char stop = 's';
    ssize_t ignored = ::write(wake_[1], &stop, 1);
    (void)ignored;
    thread_.join();
    ssh_set_counters(session_.get(), nullptr, nullptr);
    for (Link& link : links_) closeLink(link);
    ::close(wake_[0]);
    ::close(wake_[1]);
}

void ForwardingLoop::run() {
    std::vector<pollfd> polled;
    for (;;) {
        polled.clear();
        polled.push_back({wake_[0], POLLIN, 0});
        polled.push_back({listener_.fd(), POLLIN, 0});
        // Unread SSH packets matter only while a channel is in use.
        polled.push_back({links_.empty() ? -1 : ssh_get_fd(session_.get()), POLLIN, 0});
        for (const Link& link : links_) polled.push_back({link.fd, POLLIN, 0});
        // Each pass ends with libssh's buffers drained (see drainBastion), so a sleep can
        // only miss what the socket will wake us for.
        if (::poll(polled.data(), polled.size(), 1000) < 0 && errno != EINTR) {
            abandon("poll failed");
            return;
        }
        if (polled[0].revents != 0) return;
        if (polled[1].revents != 0) acceptLink();
        for (size_t i = 0; i < links_.size(); ++i) {
            if (polled[3 + i].revents != 0 && !clientToChannel(links_[i])) closeLink(links_[i]);
        }
        drainBastion();
        links_.erase(std::remove_if(links_.begin(), links_.end(),
                                    [](const Link& link) { return link.fd < 0; }),
                     links_.end());
        acknowledgeNow(ssh_get_fd(session_.get()));
        if (ssh_is_connected(session_.get()) == 0) {
            abandon(ssh_get_error(session_.get()));
            return;
        }
    }
}

// libssh reads the socket 4 KiB at a time, one read per call, and says nothing of whether it
// read anything; its byte counter does. So the channels are served again as long as a pass
// took bytes from the socket: one wake-up moves a whole burst, rather than one poll (and one
// quick-ACK request) per 4 KiB.
void ForwardingLoop::drainBastion() {
    for (;;) {
        const uint64_t before = received_.in_bytes;
        for (Link& link : links_) {
            if (link.fd >= 0 && !channelToClient(link)) closeLink(link);
        }
        if (received_.in_bytes == before) return;
    }
}

void ForwardingLoop::acceptLink() {
    const int fd = listener_.accept();
    if (fd < 0) return;
    SshChannel channel = std::move(firstChannel_);
    if (!channel) {
        try {
            channel = session_.openForward(targetHost_, targetPort_);
        } catch (const TunnelError& failure) {
            warn_(failure.what());
            ::close(fd);
            return;
        }
    }
    links_.push_back({fd, std::move(channel)});
}

bool ForwardingLoop::clientToChannel(Link& link) {
    const ssize_t n = ::recv(link.fd, buffer_.data(), buffer_.size(), MSG_DONTWAIT);
    if (n < 0) return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
    if (n == 0) return false;
    return ssh_channel_write(link.channel.get(), buffer_.data(), static_cast<uint32_t>(n)) == n;
}

bool ForwardingLoop::channelToClient(Link& link) {
    for (;;) {
        const int n = ssh_channel_read_nonblocking(link.channel.get(), buffer_.data(),
                                                   static_cast<uint32_t>(buffer_.size()), 0);
        if (n == 0) return ssh_channel_is_eof(link.channel.get()) == 0;
        if (n < 0) return false;
        if (!sendAll(link.fd, buffer_.data(), static_cast<size_t>(n))) return false;
    }
}

void ForwardingLoop::abandon(const std::string& why) {
    warn_("SSH tunnel through bastion " + session_.bastion() + " lost: " + why);
    for (Link& link : links_) closeLink(link);
    links_.clear();
    listener_.close();
}

void ForwardingLoop::closeLink(Link& link) {
    if (link.fd >= 0) ::close(link.fd);
    link.fd = -1;
    link.channel = SshChannel();
}

}  // namespace tapdiffgen::core

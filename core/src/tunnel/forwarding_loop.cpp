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
    thread_ = std::thread([this] { run(); });
}

ForwardingLoop::~ForwardingLoop() {
    const char stop = 's';
    ssize_t ignored = ::write(wake_[1], &stop, 1);
    (void)ignored;
    thread_.join();
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
        // libssh may hold decrypted data already read from the socket: then do not sleep.
        const int timeout = anyChannelHasData() ? 0 : 1000;
        if (::poll(polled.data(), polled.size(), timeout) < 0 && errno != EINTR) {
            abandon("poll failed");
            return;
        }
        if (polled[0].revents != 0) return;
        if (polled[1].revents != 0) acceptLink();
        for (size_t i = 0; i < links_.size(); ++i) {
            const pollfd& client = polled[3 + i];
            bool alive = true;
            if (client.revents != 0) alive = clientToChannel(links_[i]);
            if (alive) alive = channelToClient(links_[i]);
            if (!alive) closeLink(links_[i]);
        }
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

bool ForwardingLoop::anyChannelHasData() const {
    return std::any_of(links_.begin(), links_.end(), [](const Link& link) {
        return ssh_channel_poll(link.channel.get(), 0) > 0;
    });
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

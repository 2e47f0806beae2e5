#include "tunnel/local_listener.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "tunnel/tunnel_error.hpp"

namespace tapdiffgen::core {

LocalListener::LocalListener() {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = 0;
    socklen_t length = sizeof(address);
    if (fd_ < 0 || ::bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0 ||
        ::listen(fd_, 8) != 0 ||
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
        const int error = errno;
        close();
        throw TunnelError(
            TunnelError::Kind::Config,
            std::string("cannot listen on 127.0.0.1 for the SSH tunnel: ") + std::strerror(error));
    }
    port_ = ntohs(address.sin_port);
}

LocalListener::~LocalListener() { close(); }

int LocalListener::accept() {
    if (fd_ < 0) return -1;
    const int client = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0) return -1;
    const int on = 1;
    ::setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on));
    return client;
}

void LocalListener::close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
}

}  // namespace tapdiffgen::core

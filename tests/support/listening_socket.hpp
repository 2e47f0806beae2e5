// A socket listening on a loopback port the system chose, for tests that need a port in use:
// a fixed port of the test range may be held by chance by some client's socket (the range lies
// among the ephemeral ports), a port the kernel hands out is not.
#pragma once

#include <doctest/doctest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace tapdiffgen::testing {

class ListeningSocket {
public:
    ListeningSocket() : fd_(::socket(AF_INET, SOCK_STREAM, 0)) {
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        REQUIRE(::bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0);
        REQUIRE(::listen(fd_, 1) == 0);
        socklen_t size = sizeof(address);
        REQUIRE(::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &size) == 0);
        port_ = ntohs(address.sin_port);
    }
    ~ListeningSocket() { ::close(fd_); }
    ListeningSocket(const ListeningSocket&) = delete;
    ListeningSocket& operator=(const ListeningSocket&) = delete;

    int port() const { return port_; }

private:
    int fd_;
    int port_ = 0;
};

}  // namespace tapdiffgen::testing

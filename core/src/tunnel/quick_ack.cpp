#include "tunnel/quick_ack.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

namespace tapdiffgen::core {

void acknowledgeNow(int socket) {
    const int on = 1;
    ::setsockopt(socket, IPPROTO_TCP, TCP_QUICKACK, &on, sizeof(on));
}

}  // namespace tapdiffgen::core

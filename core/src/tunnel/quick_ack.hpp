// Immediate ACKs on the socket to the bastion.
#pragma once

namespace tapdiffgen::core {

/// An OpenSSH server sets TCP_NODELAY only for interactive sessions, so it holds back a
/// packet while its previous one is unacknowledged; Linux delays that ACK by up to 40 ms when
/// the connection looks request/response, and every exchange with the bastion would wait for
/// it. This asks the kernel to acknowledge at once. It leaves quick-ACK mode on its own
/// (whenever we send right after receiving), so callers ask again before each wait.
void acknowledgeNow(int socket);

}  // namespace tapdiffgen::core

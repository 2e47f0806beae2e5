// Whether the bastion is the host it should be: its host key against ssh_tunnel.known_hosts.
#pragma once

#include <libssh/libssh.h>

#include <functional>
#include <string>

#include "tunnel/known_hosts_file.hpp"

namespace tapdiffgen::core {

/// For a session that has done its key exchange with `bastion` ("host:port", for messages):
/// with known hosts given, a key that is not listed or differs throws
/// TunnelError(Authentication); without them, `warn` receives the key's SHA256 fingerprint and
/// the known_hosts line that pins it.
void checkHostKey(ssh_session session, const std::string& bastion, const KnownHostsFile& known,
                  const std::function<void(const std::string&)>& warn);

}  // namespace tapdiffgen::core

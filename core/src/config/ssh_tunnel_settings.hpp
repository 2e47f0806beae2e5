// The validated `ssh_tunnel` setting: how to reach the database through an SSH bastion.
#pragma once

#include <cstdint>
#include <string>

namespace tapdiffgen::core {

struct SshTunnelSettings {
    std::string host;  ///< the bastion
    int port = 0;      ///< ssh_tunnel.port: the parser fills in the catalogue's default
    std::string username;
    std::string privateKey;          ///< PEM or OpenSSH key text; secret
    std::string privateKeyPassword;  ///< secret; empty when the key is not encrypted
    std::string knownHosts;          ///< known_hosts lines or a file path; empty = not verified
    std::string targetHost;          ///< the database as the bastion reaches it (`host`)
    int targetPort = 0;              ///< (`port`)
};

}  // namespace tapdiffgen::core

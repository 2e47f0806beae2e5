// SshSession against the test bastion (OpenSSH): what it negotiates and how a forward fails.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "ssh_bastion.hpp"
#include "tunnel/ssh_session.hpp"
#include "tunnel/tunnel_error.hpp"

namespace tapdiffgen::core {
namespace {

SshTunnelSettings settingsFor(const testing::SshBastion& bastion) {
    SshTunnelSettings settings;
    settings.host = bastion.host;
    settings.port = bastion.port;
    settings.username = bastion.user;
    settings.privateKey = bastion.file("client_key");
    settings.knownHosts = bastion.file("known_hosts");
    return settings;
}

TEST_CASE("ssh session: an OpenSSH bastion with its default ciphers gets AES-GCM both ways") {
    TDG_REQUIRE_BASTION(bastion);
    std::vector<std::string> warnings;
    SshSession session(settingsFor(bastion), 10,
                       [&](const std::string& text) { warnings.push_back(text); });
    CHECK(std::string(ssh_get_cipher_out(session.get())) == "aes128-gcm@openssh.com");
    CHECK(std::string(ssh_get_cipher_in(session.get())) == "aes128-gcm@openssh.com");
    CHECK(warnings.empty());
}

TEST_CASE("ssh session: a forward the bastion cannot connect fails with the bastion's reason") {
    TDG_REQUIRE_BASTION(bastion);
    SshSession session(settingsFor(bastion), 10, [](const std::string&) {});
    const std::string bastionName = bastion.host + ":" + std::to_string(bastion.port);
    try {
        session.openForward("127.0.0.1", bastion.closedPort);
        FAIL("the forward to a closed port opened");
    } catch (const TunnelError& failure) {
        CHECK(failure.kind() == TunnelError::Kind::Network);
        CHECK(std::string(failure.what()) ==
              "SSH bastion " + bastionName + " cannot reach the database at 127.0.0.1:" +
                  std::to_string(bastion.closedPort) + ": Connection refused");
    }
    // The session is still usable: a refused forward is the bastion's answer, not a loss.
    CHECK(ssh_is_connected(session.get()) != 0);
}

}  // namespace
}  // namespace tapdiffgen::core

// The throwaway OpenSSH server tests/servers/sshd.sh runs as the tests' bastion, and the
// ssh_tunnel settings that reach it.
#pragma once

#include <optional>
#include <string>

#include "support/databases.hpp"

namespace tapdiffgen::testing {

struct SshBastion {
    std::string host;  // 127.0.0.1
    int port = 0;
    std::string user;
    std::string dir;  // the keys and known_hosts files sshd.sh made
    std::string script;
    std::string keyPassphrase;
    int closedPort = 0;  // permitted as a target, but nothing listens there

    /// The text of one of the files in dir ("client_key", "known_hosts", ...).
    std::string file(const std::string& name) const;
    /// SIGKILLs every per-connection sshd process (sshd.sh kill-sessions); how many it killed.
    int killSessions() const;
};

/// From TDG_TEST_SSH_*; nullopt when not set (outside ctest).
std::optional<SshBastion> sshBastion();

/// The settings of an enabled ssh_tunnel object, as the value of ssh_tunnel in JSON, with
/// private_key from the key file `keyFile` and `extra` members appended (JSON text).
std::string tunnelJson(const SshBastion& bastion, const std::string& keyFile,
                       const std::string& extra = "");

/// JSON string literal of `text`.
std::string jsonText(const std::string& text);

}  // namespace tapdiffgen::testing

#define TDG_REQUIRE_BASTION(var)                                                            \
    auto var##_optional = ::tapdiffgen::testing::sshBastion();                              \
    if (!var##_optional) {                                                                  \
        if (::tapdiffgen::testing::ciMode()) FAIL("TDG_TEST_SSH_* unset but CI=true");      \
        MESSAGE("SKIPPED: the SSH bastion is not configured; run through ctest to get it"); \
        return;                                                                             \
    }                                                                                       \
    const ::tapdiffgen::testing::SshBastion& var = *var##_optional

// The client's private key, imported from the text of ssh_tunnel.private_key.
#pragma once

#include <libssh/libssh.h>

#include <string>

namespace tapdiffgen::core {

class SshPrivateKey {
public:
    /// Throws TunnelError(Config) naming the setting: not a key, encrypted without a
    /// passphrase, or a passphrase that does not decrypt it.
    SshPrivateKey(const std::string& text, const std::string& passphrase);
    ~SshPrivateKey();
    SshPrivateKey(const SshPrivateKey&) = delete;
    SshPrivateKey& operator=(const SshPrivateKey&) = delete;

    ssh_key get() const { return key_; }

private:
    ssh_key key_ = nullptr;
};

}  // namespace tapdiffgen::core

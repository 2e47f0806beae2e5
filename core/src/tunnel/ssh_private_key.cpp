#include "tunnel/ssh_private_key.hpp"

#include <Poco/Base64Decoder.h>

#include <cstdint>
#include <sstream>

#include "tunnel/tunnel_error.hpp"

namespace tapdiffgen::core {
namespace {

constexpr const char* kOpenSshBegin = "-----BEGIN OPENSSH PRIVATE KEY-----";
constexpr const char* kOpenSshEnd = "-----END OPENSSH PRIVATE KEY-----";

// An OpenSSH key file is "openssh-key-v1\0", then the cipher name as a length-prefixed string;
// "none" means not encrypted.
bool isEncryptedOpenSshKey(const std::string& text) {
    const auto begin = text.find(kOpenSshBegin);
    const auto end = text.find(kOpenSshEnd);
    if (begin == std::string::npos || end == std::string::npos || end < begin) return false;
    const auto bodyStart = begin + std::string(kOpenSshBegin).size();
    std::istringstream base64(text.substr(bodyStart, end - bodyStart));
    Poco::Base64Decoder decoder(base64);
    std::string blob;
    char c;
    while (blob.size() < 64 && decoder.get(c)) blob.push_back(c);
    const std::string magic("openssh-key-v1\0", 15);
    if (blob.compare(0, magic.size(), magic) != 0 || blob.size() < magic.size() + 4) return false;
    uint32_t length = 0;
    for (size_t i = 0; i < 4; ++i) {
        length = (length << 8) | static_cast<unsigned char>(blob[magic.size() + i]);
    }
    return blob.compare(magic.size() + 4, length, "none") != 0;
}

// PEM keys say so in a header: "Proc-Type: 4,ENCRYPTED" or "BEGIN ENCRYPTED PRIVATE KEY".
bool isEncrypted(const std::string& text) {
    return text.find("ENCRYPTED") != std::string::npos || isEncryptedOpenSshKey(text);
}

}  // namespace

SshPrivateKey::SshPrivateKey(const std::string& text, const std::string& passphrase) {
    const bool encrypted = isEncrypted(text);
    if (encrypted && passphrase.empty()) {
        throw TunnelError(TunnelError::Kind::Config,
                          "ssh_tunnel.private_key is encrypted but "
                          "ssh_tunnel.private_key_password is not set");
    }
    // No callback: libssh must never prompt on a terminal for a passphrase.
    const int rc = ssh_pki_import_privkey_base64(
        text.c_str(), passphrase.empty() ? nullptr : passphrase.c_str(), nullptr, nullptr, &key_);
    if (rc == SSH_OK) return;
    key_ = nullptr;
    if (encrypted) {
        throw TunnelError(TunnelError::Kind::Config,
                          "ssh_tunnel.private_key_password does not decrypt "
                          "ssh_tunnel.private_key (wrong passphrase)");
    }
    throw TunnelError(TunnelError::Kind::Config,
                      "ssh_tunnel.private_key is not a PEM or OpenSSH private key");
}

SshPrivateKey::~SshPrivateKey() { ssh_key_free(key_); }

}  // namespace tapdiffgen::core

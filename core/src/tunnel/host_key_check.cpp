#include "tunnel/host_key_check.hpp"

#include <memory>

#include "tunnel/tunnel_error.hpp"

namespace tapdiffgen::core {
namespace {

struct KeyDeleter {
    void operator()(ssh_key key) const { ssh_key_free(key); }
};
using KeyPtr = std::unique_ptr<std::remove_pointer_t<ssh_key>, KeyDeleter>;

// "ssh-ed25519 SHA256:base64", as ssh-keygen -l shows a key.
std::string describeServerKey(ssh_session session) {
    ssh_key raw = nullptr;
    if (ssh_get_server_publickey(session, &raw) != SSH_OK) return "an unreadable key";
    KeyPtr key(raw);
    unsigned char* hash = nullptr;
    size_t length = 0;
    if (ssh_get_publickey_hash(key.get(), SSH_PUBLICKEY_HASH_SHA256, &hash, &length) != SSH_OK) {
        return "an unreadable key";
    }
    char* fingerprint = ssh_get_fingerprint_hash(SSH_PUBLICKEY_HASH_SHA256, hash, length);
    ssh_clean_pubkey_hash(&hash);
    std::string text = std::string(ssh_key_type_to_char(ssh_key_type(key.get()))) + " " +
                       (fingerprint != nullptr ? fingerprint : "?");
    ssh_string_free_char(fingerprint);
    return text;
}

std::string pinLine(ssh_session session) {
    char* line = nullptr;
    if (ssh_session_export_known_hosts_entry(session, &line) != SSH_OK || line == nullptr) {
        return "";
    }
    std::string text = line;
    ssh_string_free_char(line);
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
    return text;
}

}  // namespace

void checkHostKey(ssh_session session, const std::string& bastion, const KnownHostsFile& known,
                  const std::function<void(const std::string&)>& warn) {
    const std::string key = describeServerKey(session);
    if (!known.given()) {
        warn("ssh_tunnel.known_hosts is not set: the host key of SSH bastion " + bastion + " (" +
             key + ") is accepted unverified; to pin it, set ssh_tunnel.known_hosts to: " +
             pinLine(session));
        return;
    }
    switch (ssh_session_is_known_server(session)) {
        case SSH_KNOWN_HOSTS_OK:
            return;
        case SSH_KNOWN_HOSTS_CHANGED:
        case SSH_KNOWN_HOSTS_OTHER:
            throw TunnelError(TunnelError::Kind::Authentication,
                              "host key of SSH bastion " + bastion + " (" + key +
                                  ") does not match ssh_tunnel.known_hosts: refusing to connect");
        case SSH_KNOWN_HOSTS_UNKNOWN:
        case SSH_KNOWN_HOSTS_NOT_FOUND:
            throw TunnelError(TunnelError::Kind::Authentication,
                              "host key of SSH bastion " + bastion + " (" + key +
                                  ") is not in ssh_tunnel.known_hosts: refusing to connect");
        case SSH_KNOWN_HOSTS_ERROR:
        default:
            throw TunnelError(TunnelError::Kind::Config,
                              "cannot check the host key of SSH bastion " + bastion +
                                  " against ssh_tunnel.known_hosts: " + ssh_get_error(session));
    }
}

}  // namespace tapdiffgen::core

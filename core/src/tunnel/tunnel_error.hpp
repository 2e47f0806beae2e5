// A failure of the SSH tunnel, as one line that never holds a secret.
#pragma once

#include <stdexcept>
#include <string>

namespace tapdiffgen::core {

class TunnelError : public std::runtime_error {
public:
    enum class Kind {
        Config,          ///< a setting is unusable (key, passphrase, known_hosts file)
        Network,         ///< bastion or database unreachable: may work when tried again
        Authentication,  ///< key refused, host key not trusted
        Refused,         ///< the bastion does not forward for us
    };
    TunnelError(Kind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
    Kind kind() const { return kind_; }
    bool retryable() const { return kind_ == Kind::Network; }

private:
    Kind kind_;
};

}  // namespace tapdiffgen::core

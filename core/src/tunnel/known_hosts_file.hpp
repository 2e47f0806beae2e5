// ssh_tunnel.known_hosts as a file libssh can read: the given path, or the given lines written
// to a private temporary file for as long as this object lives.
#pragma once

#include <string>

namespace tapdiffgen::core {

class KnownHostsFile {
public:
    /// `setting` is known_hosts lines (text with a space in it) or a file path; empty means
    /// none, and path() is then /dev/null. Throws TunnelError(Config) for an unreadable file.
    explicit KnownHostsFile(const std::string& setting);
    ~KnownHostsFile();
    KnownHostsFile(const KnownHostsFile&) = delete;
    KnownHostsFile& operator=(const KnownHostsFile&) = delete;

    bool given() const { return given_; }
    const std::string& path() const { return path_; }

private:
    bool given_ = false;
    bool temporary_ = false;
    std::string path_ = "/dev/null";
};

}  // namespace tapdiffgen::core

#include "tunnel/known_hosts_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "tunnel/tunnel_error.hpp"

namespace tapdiffgen::core {
namespace {

// A known_hosts line always has a space between its host and its key; a path has none.
bool isLines(const std::string& setting) {
    return setting.find_first_of(" \t\n") != std::string::npos;
}

std::string writeTemporary(const std::string& lines) {
    const char* dir = std::getenv("TMPDIR");
    std::string pattern = std::string(dir != nullptr && dir[0] != '\0' ? dir : "/tmp") +
                          "/tap-diffgen-known-hosts-XXXXXX";
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    const int fd = ::mkstemp(name.data());
    if (fd < 0) {
        throw TunnelError(TunnelError::Kind::Config,
                          std::string("cannot write ssh_tunnel.known_hosts to a temporary file: ") +
                              std::strerror(errno));
    }
    const std::string content = lines + "\n";
    size_t written = 0;
    while (written < content.size()) {
        const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            const int error = errno;
            ::close(fd);
            ::unlink(name.data());
            throw TunnelError(TunnelError::Kind::Config,
                              std::string("cannot write ssh_tunnel.known_hosts to a temporary "
                                          "file: ") +
                                  std::strerror(error));
        }
        written += static_cast<size_t>(n);
    }
    ::close(fd);
    return name.data();
}

}  // namespace

KnownHostsFile::KnownHostsFile(const std::string& setting) {
    if (setting.empty()) return;
    given_ = true;
    if (isLines(setting)) {
        path_ = writeTemporary(setting);
        temporary_ = true;
        return;
    }
    if (::access(setting.c_str(), R_OK) != 0) {
        throw TunnelError(TunnelError::Kind::Config, "cannot read ssh_tunnel.known_hosts file '" +
                                                         setting + "': " + std::strerror(errno));
    }
    path_ = setting;
}

KnownHostsFile::~KnownHostsFile() {
    if (temporary_) ::unlink(path_.c_str());
}

}  // namespace tapdiffgen::core

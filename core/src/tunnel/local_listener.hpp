// The tunnel's local end: a TCP socket listening on 127.0.0.1 at a port the kernel picks.
#pragma once

namespace tapdiffgen::core {

class LocalListener {
public:
    /// Throws TunnelError(Config) when no socket can be bound.
    LocalListener();
    ~LocalListener();
    LocalListener(const LocalListener&) = delete;
    LocalListener& operator=(const LocalListener&) = delete;

    int fd() const { return fd_; }
    int port() const { return port_; }
    /// A connection waiting to be accepted, as a blocking socket with TCP_NODELAY; -1 if none.
    int accept();
    /// Stops listening: later connections are refused.
    void close();

private:
    int fd_ = -1;
    int port_ = 0;
};

}  // namespace tapdiffgen::core

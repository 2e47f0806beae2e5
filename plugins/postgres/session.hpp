// One libpq connection: opening it (with a deadline and verbose errors, so a failure carries
// its SQLSTATE), the cancel handle other threads may use, and closing it.
#pragma once

#include <libpq-fe.h>

#include <atomic>
#include <mutex>
#include <string>

#include "tap-diffgen/sdk/types.hpp"

namespace tapdiffgen::postgres {

class Session {
public:
    /// Connects; throws DriverError (UNAUTHENTICATED, NOT_FOUND, IO, INVALID_ARGUMENT).
    explicit Session(const sdk::ConnectOptions& options);
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    /// The live connection; throws DriverError(TDG_IO, retryable) when it was lost.
    PGconn* handle();
    /// PQserverVersion: 150020 for 15.20.
    int serverVersionNumber() const { return PQserverVersion(connection_); }
    /// "15.20" (the distribution suffix of server_version dropped).
    std::string serverVersionText() const;

    /// Asks the server to stop the running statement and marks the session cancelled, so a
    /// multi-statement read stops too. Safe from any thread.
    void cancel() noexcept;
    /// Asks the server to stop the running statement only (abandoning a stream).
    void interrupt() noexcept;
    /// Whether cancel() was called since the last clearCancelled().
    bool cancelled() const { return cancelled_.load(); }
    void clearCancelled() { cancelled_.store(false); }

    const sdk::ConnectOptions& options() const { return options_; }

private:
    sdk::ConnectOptions options_;
    PGconn* connection_ = nullptr;
    PGcancel* canceller_ = nullptr;
    std::mutex cancelMutex_;
    std::atomic<bool> cancelled_{false};
};

}  // namespace tapdiffgen::postgres

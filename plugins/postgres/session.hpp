// One libpq connection: opening it (with a deadline and verbose errors, so a failure carries
// its SQLSTATE), the cancel handle other threads may use, and closing it.
#pragma once

#include <libpq-fe.h>

#include <atomic>
#include <mutex>
#include <string>

#include "named_statements.hpp"
#include "result_widths.hpp"
#include "tap-diffgen/sdk/call_cancel.hpp"
#include "tap-diffgen/sdk/host_log.hpp"
#include "tap-diffgen/sdk/types.hpp"
#include "tap-diffgen/sdk/unrepresentable.hpp"

namespace tapdiffgen::postgres {

class Session {
public:
    /// Connects; throws DriverError (UNAUTHENTICATED, NOT_FOUND, IO, INVALID_ARGUMENT).
    /// `cancel` is the driver's: the running call's cancel request.
    Session(const sdk::ConnectOptions& options, sdk::HostLog log, const sdk::CallCancel& cancel);
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    /// The live connection; throws DriverError(TDG_IO, retryable) when it was lost.
    PGconn* handle();
    /// PQserverVersion: 150020 for 15.20.
    int serverVersionNumber() const { return PQserverVersion(connection_); }
    /// "15.20" (the distribution suffix of server_version dropped).
    std::string serverVersionText() const;

    /// Asks the server to stop the running statement (a cancel, or abandoning a stream). Safe
    /// from any thread.
    void interrupt() noexcept;
    /// Whether the running call was asked to stop, so a multi-statement read stops too.
    bool cancelled() const { return cancel_.requested(); }

    const sdk::HostLog& log() const { return log_; }
    /// Values of this connection's reads that a column's kind cannot carry.
    sdk::UnrepresentableValues& unrepresentable() { return unrepresentable_; }

    /// The fetches this session keeps prepared under names.
    NamedStatements& namedStatements() { return named_; }
    /// The widest row read from each table, for pipelined statements (result_widths.hpp).
    ResultWidths& resultWidths() { return widths_; }
    /// Deallocates the statements the cache dropped; call while no statement runs.
    void releaseDroppedStatements();

private:
    sdk::HostLog log_;
    const sdk::CallCancel& cancel_;
    sdk::UnrepresentableValues unrepresentable_;
    NamedStatements named_;
    ResultWidths widths_;
    PGconn* connection_ = nullptr;
    PGcancel* canceller_ = nullptr;
    std::mutex cancelMutex_;
};

}  // namespace tapdiffgen::postgres

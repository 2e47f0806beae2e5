#include "session.hpp"

#include <poll.h>

#include <cerrno>
#include <chrono>

#include "errors.hpp"
#include "settings.hpp"
#include "tap-diffgen/sdk/values.hpp"

namespace tapdiffgen::postgres {
namespace {

using Clock = std::chrono::steady_clock;

// Server NOTICEs would go to the tap's stderr unformatted; route them through the host's log.
void forwardNotice(void* context, const char* message) {
    const auto* log = static_cast<const sdk::HostLog*>(context);
    std::string text = message != nullptr ? message : "";
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    log->info("PostgreSQL: " + text);
}

// Waits until the socket is ready in the direction libpq asked for; false on timeout.
bool waitForSocket(PGconn* connection, PostgresPollingStatusType direction,
                   Clock::time_point deadline) {
    pollfd descriptor{};
    descriptor.fd = PQsocket(connection);
    descriptor.events = direction == PGRES_POLLING_READING ? POLLIN : POLLOUT;
    for (;;) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        if (left.count() <= 0) return false;
        int ready = ::poll(&descriptor, 1, static_cast<int>(left.count()));
        if (ready > 0) return true;
        if (ready == 0) return false;
        if (errno != EINTR) return true;  // let PQconnectPoll report the socket error
    }
}

// PQconnectdbParams cannot be told to report SQLSTATEs, so drive the handshake by hand with
// verbose errors switched on first; the deadline replaces libpq's connect_timeout, which only
// the blocking call honours.
PGconn* openConnection(const ConnectParams& params) {
    PGconn* connection = PQconnectStartParams(params.keywords(), params.values(), 0);
    if (connection == nullptr) throw sdk::DriverError(TDG_INTERNAL, "out of memory in libpq");
    PQsetErrorVerbosity(connection, PQERRORS_VERBOSE);
    auto deadline = Clock::now() + std::chrono::seconds(params.connectTimeoutSeconds());
    PostgresPollingStatusType state = PGRES_POLLING_WRITING;
    while (PQstatus(connection) != CONNECTION_BAD && state != PGRES_POLLING_OK &&
           state != PGRES_POLLING_FAILED) {
        if (!waitForSocket(connection, state, deadline)) {
            PQfinish(connection);
            throw sdk::DriverError(TDG_IO,
                                   "cannot connect to PostgreSQL at " + params.describe() +
                                       ": timed out after " +
                                       std::to_string(params.connectTimeoutSeconds()) + " s",
                                   "08001", true);
        }
        state = PQconnectPoll(connection);
    }
    if (PQstatus(connection) != CONNECTION_OK) {
        sdk::DriverError failure = connectError(connection, params.password());
        PQfinish(connection);
        throw failure;
    }
    PQsetErrorVerbosity(connection, PQERRORS_DEFAULT);
    return connection;
}

}  // namespace

Session::Session(const sdk::ConnectOptions& options, sdk::HostLog log,
                 const sdk::CallCancel& cancel)
    : log_(std::move(log)), cancel_(cancel), unrepresentable_(log_) {
    ConnectParams params(options);
    connection_ = openConnection(params);
    PQsetNoticeProcessor(connection_, &forwardNotice, &log_);
    canceller_ = PQgetCancel(connection_);
    if (serverVersionNumber() < 120000) {
        // Before 12, extra_float_digits=1 is not shortest-exact; 3 at least prints every float
        // exactly (17 significant digits).
        PQclear(PQexec(connection_, "SET extra_float_digits = 3"));
    } else {
        // Every statement of the plugin is a lookup by key or a bounded read in key order, for
        // which a generic plan is right. A custom plan (every unnamed statement, and the first
        // five runs of a named one) is made with the values in view: past a few thousand keys
        // of a re-pull it picks a sequential scan, parallel where the server allows it, 55 ms
        // and three processes for 12,000 keys of a 325,000-row table whose primary key reads
        // them in 22 ms, and planning with every key weighed took 1-2.5 ms of each. (12 added
        // the setting; a failure here costs only speed.)
        PQclear(PQexec(connection_, "SET plan_cache_mode = force_generic_plan"));
    }
}

Session::~Session() {
    {
        std::lock_guard<std::mutex> lock(cancelMutex_);
        if (canceller_ != nullptr) PQfreeCancel(canceller_);
        canceller_ = nullptr;
    }
    PQfinish(connection_);
}

PGconn* Session::handle() {
    if (PQstatus(connection_) != CONNECTION_OK) {
        throw sdk::DriverError(TDG_IO, "the connection to PostgreSQL was lost", "08003", true);
    }
    return connection_;
}

void Session::releaseDroppedStatements() {
    for (const std::string& name : named_.takeDropped()) {
        // A failure (a name the server never prepared) changes nothing worth reporting.
        PQclear(PQexec(handle(), ("DEALLOCATE " + sdk::quoteIdentifier(name, '"')).c_str()));
    }
}

std::string Session::serverVersionText() const {
    const char* version = PQparameterStatus(connection_, "server_version");
    std::string text = version != nullptr ? version : "";
    size_t space = text.find(' ');
    return space == std::string::npos ? text : text.substr(0, space);
}

void Session::interrupt() noexcept {
    std::lock_guard<std::mutex> lock(cancelMutex_);
    if (canceller_ == nullptr) return;
    char message[256];
    PQcancel(canceller_, message, sizeof(message));
}

}  // namespace tapdiffgen::postgres

#include "notifications.hpp"

#include <poll.h>

#include <cerrno>

#include "errors.hpp"
#include "statement.hpp"
#include "tap-diffgen/sdk/errors.hpp"
#include "tap-diffgen/sdk/values.hpp"

namespace tapdiffgen::postgres {
namespace {

[[noreturn]] void lost(PGconn* connection) {
    throw sdk::DriverError(
        TDG_IO,
        "waiting for notifications: " + safeMessage(PQerrorMessage(connection), std::string()),
        "08006", true);
}

}  // namespace

ChangeListener::ChangeListener(Session& session, std::string channel)
    : session_(session), channel_(std::move(channel)) {
    if (channel_.empty()) return;
    execute(session_, "LISTEN " + sdk::quoteIdentifier(channel_, '"'), {},
            "listening on notify_channel '" + channel_ + "'");
}

bool ChangeListener::drainQueued() {
    bool any = false;
    while (PGnotify* notification = PQnotifies(session_.handle())) {
        PQfreemem(notification);
        any = true;
    }
    return any;
}

std::optional<bool> ChangeListener::wait(int64_t timeoutMs) {
    if (channel_.empty()) return std::nullopt;
    PGconn* connection = session_.handle();
    if (drainQueued()) return true;
    pollfd socket{PQsocket(connection), POLLIN, 0};
    if (socket.fd < 0) lost(connection);
    int ready = ::poll(&socket, 1, static_cast<int>(timeoutMs));
    if (ready < 0 && errno == EINTR) return false;
    if (ready <= 0) return false;
    if (PQconsumeInput(connection) == 0) lost(connection);
    return drainQueued();
}

}  // namespace tapdiffgen::postgres

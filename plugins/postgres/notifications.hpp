// Waking a following run on commit: with notify_channel set, the session LISTENs on it, and
// the statement-level trigger of packaging/diffgen/postgres.sql sends one pg_notify per
// transaction that journals changes. A notification arrives after its transaction commits.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "session.hpp"

namespace tapdiffgen::postgres {

class ChangeListener {
public:
    /// LISTENs on `channel` (quoted as an identifier) when it is not empty.
    ChangeListener(Session& session, std::string channel);

    /// nullopt without a channel; otherwise whether a notification arrived within timeoutMs
    /// (queued ones, received with earlier results, count at once). A signal ends the wait
    /// early with false. Throws DriverError when the connection was lost.
    std::optional<bool> wait(int64_t timeoutMs);

private:
    Session& session_;
    std::string channel_;

    bool drainQueued();
};

}  // namespace tapdiffgen::postgres

// Turns client and server error numbers into the ABI's statuses, so the engine can tell a wrong
// password from a missing table from a dropped connection without knowing MySQL.
#pragma once

#include <string>
#include <string_view>

#include "tap-diffgen/sdk/errors.hpp"

namespace tapdiffgen::mysql {

/// What went wrong, as the client library reported it.
struct ClientFailure {
    unsigned code = 0;
    std::string sqlstate;
    std::string message;
};

/// The ABI status for a MySQL/MariaDB error number (client 2xxx or server 1xxx/4xxx).
TdgStatus statusForError(unsigned code, std::string_view sqlstate);

/// True when reconnecting and trying again may succeed (lost or refused connections).
bool isRetryable(unsigned code, std::string_view sqlstate);

/// "<context>: <message> (MySQL error <code>)", with every occurrence of `secret` masked.
sdk::DriverError toDriverError(const ClientFailure& failure, std::string_view context,
                               std::string_view secret);

}  // namespace tapdiffgen::mysql

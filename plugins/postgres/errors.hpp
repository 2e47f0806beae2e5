// Turns libpq failures into sdk::DriverError: the ABI status comes from the SQLSTATE, so the
// engine can tell a wrong password from a lost network without reading English text.
#pragma once

#include <libpq-fe.h>

#include <string>
#include <string_view>

#include "tap-diffgen/sdk/errors.hpp"

namespace tapdiffgen::postgres {

/// The error of a failed statement. `context` says what was being done ("reading table 'x'").
sdk::DriverError resultError(const PGresult* result, PGconn* connection,
                             const std::string& context);

/// The error of a failed connection attempt. libpq's message carries the SQLSTATE only when
/// the connection was set to verbose errors; `secret` is scrubbed from the text in any case.
sdk::DriverError connectError(PGconn* connection, const std::string& secret);

/// `text`'s first line with every occurrence of `secret` replaced (sdk/errors.hpp).
std::string safeMessage(std::string_view text, const std::string& secret);

}  // namespace tapdiffgen::postgres

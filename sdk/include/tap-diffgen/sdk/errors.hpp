// Exceptions a plugin throws inside its IDialectDriver; the export trampolines turn them into a
// TdgStatus and a TdgError. Nothing here crosses the C boundary.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "tap-diffgen/dialect_abi.h"

namespace tapdiffgen::sdk {

/// A failure with its ABI status, the server's SQLSTATE when known, and whether retrying after a
/// reconnect may help. The message must be one line and must never contain a password.
class DriverError : public std::runtime_error {
public:
    DriverError(TdgStatus status, const std::string& message, std::string sqlstate = {},
                bool retryable = false, int vendorCode = 0)
        : std::runtime_error(message),
          status_(status),
          sqlstate_(std::move(sqlstate)),
          retryable_(retryable),
          vendorCode_(vendorCode) {}

    TdgStatus status() const noexcept { return status_; }
    const std::string& sqlstate() const noexcept { return sqlstate_; }
    bool retryable() const noexcept { return retryable_; }
    int vendorCode() const noexcept { return vendorCode_; }

private:
    TdgStatus status_;
    std::string sqlstate_;
    bool retryable_;
    int vendorCode_;
};

/// Shorthands for the common statuses.
inline DriverError notFound(const std::string& message) {
    return DriverError(TDG_NOT_FOUND, message);
}
inline DriverError invalidArgument(const std::string& message) {
    return DriverError(TDG_INVALID_ARGUMENT, message);
}
inline DriverError notImplemented(const std::string& message) {
    return DriverError(TDG_NOT_IMPLEMENTED, message);
}
/// A row read's table no longer matches its request (see TDG_TABLE_CHANGED). Since SDK 0.2.0.
inline DriverError tableChanged(const std::string& message) {
    return DriverError(TDG_TABLE_CHANGED, message);
}

/// What a failure means for the tap: its status, and whether a reconnect may cure it.
struct ErrorClass {
    TdgStatus status = TDG_UNKNOWN;
    bool retryable = false;
};

/// The SQL standard's SQLSTATE classes as statuses, for drivers whose client reports them:
/// 08 connection (I/O, retryable), 28 authorization (UNAUTHENTICATED), 42501 privilege
/// (UNAUTHORIZED), 3D000 / 3F000 / 42P01 / 42S02 / 42703 / 42S22 missing object (NOT_FOUND),
/// 57014 / HY008 cancelled (CANCELLED), 40001 / 40P01 serialization or deadlock and 53 / 57P0x
/// server resources or shutdown (I/O, retryable), 22 data (INVALID_DATA), other 42 (INVALID_
/// ARGUMENT); anything else, and an empty SQLSTATE, is UNKNOWN. Since SDK 0.2.0.
ErrorClass classifySqlstate(std::string_view sqlstate);

/// `text` with every occurrence of `secret` replaced by "***" (nothing when secret is empty):
/// client libraries echo a connection string, password included, in some messages.
std::string redactSecret(std::string text, std::string_view secret);

/// The first line of `text`, trailing white space removed: an error message is one line.
std::string firstLine(std::string_view text);

/// Fills a TdgError the host handed in (message copied with malloc, released by error->release).
void setError(TdgError* error, const DriverError& failure) noexcept;
void setError(TdgError* error, TdgStatus status, const char* message) noexcept;

}  // namespace tapdiffgen::sdk

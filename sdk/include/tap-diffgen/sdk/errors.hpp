// Exceptions a plugin throws inside its IDialectDriver; the export trampolines turn them into a
// TdgStatus and a TdgError. Nothing here crosses the C boundary.
#pragma once

#include <stdexcept>
#include <string>

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

/// Fills a TdgError the host handed in (message copied with malloc, released by error->release).
void setError(TdgError* error, const DriverError& failure) noexcept;
void setError(TdgError* error, TdgStatus status, const char* message) noexcept;

}  // namespace tapdiffgen::sdk

// Turns SQLite result codes into sdk::DriverError: the engine acts on the status (retry a busy
// database, report a missing table) without reading English text.
#pragma once

#include <sqlite3.h>

#include <string>
#include <string_view>

#include "tap-diffgen/sdk/errors.hpp"

namespace tapdiffgen::sqlite {

/// Status and retryability implied by an (extended) result code; `message` tells the
/// SQLITE_ERROR cases apart ("no such table" is NOT_FOUND, a syntax error is not).
struct ErrorClass {
    TdgStatus status;
    bool retryable;
};
ErrorClass classifyResult(int code, std::string_view message);

/// The error of a failed call on `db`. `context` says what was being done ("reading table 'x'").
sdk::DriverError sqliteError(sqlite3* db, int code, const std::string& context);

}  // namespace tapdiffgen::sqlite

#include "errors.hpp"

namespace tapdiffgen::sqlite {

ErrorClass classifyResult(int code, std::string_view message) {
    switch (code & 0xff) {
        case SQLITE_BUSY:
        case SQLITE_LOCKED:
            // Another connection held the lock for longer than the busy timeout.
            return {TDG_IO, true};
        case SQLITE_IOERR:
        case SQLITE_PROTOCOL:
            return {TDG_IO, true};
        case SQLITE_CANTOPEN:
        case SQLITE_FULL:
            return {TDG_IO, false};
        case SQLITE_INTERRUPT:
            return {TDG_CANCELLED, false};
        case SQLITE_PERM:
        case SQLITE_AUTH:
        case SQLITE_READONLY:
            return {TDG_UNAUTHORIZED, false};
        case SQLITE_NOTADB:
        case SQLITE_CORRUPT:
        case SQLITE_MISMATCH:
        case SQLITE_TOOBIG:
            return {TDG_INVALID_DATA, false};
        case SQLITE_NOMEM:
        case SQLITE_MISUSE:
        case SQLITE_RANGE:
        case SQLITE_INTERNAL:
            return {TDG_INTERNAL, false};
        case SQLITE_SCHEMA:
            return {TDG_UNKNOWN, true};
        case SQLITE_ERROR:
            // SQLite reports a missing object only through the message of the generic code.
            if (message.starts_with("no such table") || message.starts_with("no such column") ||
                message.starts_with("unknown database")) {
                return {TDG_NOT_FOUND, false};
            }
            return {TDG_UNKNOWN, false};
        default:
            return {TDG_UNKNOWN, false};
    }
}

sdk::DriverError sqliteError(sqlite3* db, int code, const std::string& context) {
    std::string message = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(code);
    ErrorClass kind = classifyResult(code, message);
    return sdk::DriverError(kind.status, context + ": " + message, {}, kind.retryable, code);
}

}  // namespace tapdiffgen::sqlite

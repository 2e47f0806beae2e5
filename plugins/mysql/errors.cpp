#include "errors.hpp"

#include <errmsg.h>
#include <mysqld_error.h>

namespace tapdiffgen::mysql {

TdgStatus statusForError(unsigned code, std::string_view sqlstate) {
    switch (code) {
        case ER_ACCESS_DENIED_ERROR:
        case ER_ACCESS_DENIED_NO_PASSWORD_ERROR:
        case ER_NOT_SUPPORTED_AUTH_MODE:
        case ER_MUST_CHANGE_PASSWORD:
        case ER_ACCOUNT_HAS_BEEN_LOCKED:
        case CR_AUTH_PLUGIN_CANNOT_LOAD:
        case CR_SSL_CONNECTION_ERROR:
            return TDG_UNAUTHENTICATED;
        case ER_DBACCESS_DENIED_ERROR:
        case ER_TABLEACCESS_DENIED_ERROR:
        case ER_COLUMNACCESS_DENIED_ERROR:
        case ER_SPECIFIC_ACCESS_DENIED_ERROR:
        case ER_PROCACCESS_DENIED_ERROR:
        case ER_KILL_DENIED_ERROR:
            return TDG_UNAUTHORIZED;
        case ER_BAD_DB_ERROR:
        case ER_NO_SUCH_TABLE:
        case ER_BAD_FIELD_ERROR:
        case ER_UNKNOWN_TABLE:
        case ER_NO_DB_ERROR:
            return TDG_NOT_FOUND;
        case ER_QUERY_INTERRUPTED:
            return TDG_CANCELLED;
        case CR_OUT_OF_MEMORY:
        case CR_COMMANDS_OUT_OF_SYNC:
        case CR_NO_DATA:
            return TDG_INTERNAL;
        default:
            break;
    }
    if (isRetryable(code, sqlstate)) return TDG_IO;
    return sdk::classifySqlstate(sqlstate).status;
}

bool isRetryable(unsigned code, std::string_view sqlstate) {
    switch (code) {
        case CR_CONNECTION_ERROR:
        case CR_CONN_HOST_ERROR:
        case CR_UNKNOWN_HOST:
        case CR_SERVER_GONE_ERROR:
        case CR_SERVER_LOST:
        case CR_SERVER_LOST_EXTENDED:
        case CR_ERR_NET_READ:
        case CR_ERR_NET_WRITE:
        case ER_CON_COUNT_ERROR:
        case ER_TOO_MANY_USER_CONNECTIONS:
        case ER_SERVER_SHUTDOWN:
        case ER_CONNECTION_KILLED:
        case ER_LOCK_WAIT_TIMEOUT:
        case ER_LOCK_DEADLOCK:
        case ER_STATEMENT_TIMEOUT:
            return true;
        default:
            return sqlstate.substr(0, 2) == "08";
    }
}

sdk::DriverError toDriverError(const ClientFailure& failure, std::string_view context,
                               std::string_view secret) {
    std::string message(context);
    message += ": ";
    message += failure.message.empty() ? "unknown error" : failure.message;
    if (failure.code != 0) message += " (MySQL error " + std::to_string(failure.code) + ")";
    // "HY000" is the client library's "no idea"; passing it on would only mislead.
    std::string sqlstate = failure.sqlstate == "HY000" ? std::string() : failure.sqlstate;
    return sdk::DriverError(statusForError(failure.code, failure.sqlstate),
                            sdk::redactSecret(std::move(message), secret), std::move(sqlstate),
                            isRetryable(failure.code, failure.sqlstate),
                            static_cast<int>(failure.code));
}

}  // namespace tapdiffgen::mysql

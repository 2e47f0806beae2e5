#include "errors.hpp"

#include <cctype>

namespace tapdiffgen::postgres {
namespace {

bool isSqlstateChar(char c) {
    return std::isdigit(static_cast<unsigned char>(c)) || (c >= 'A' && c <= 'Z');
}

// With PQERRORS_VERBOSE libpq writes "FATAL:  28P01: password authentication failed ...".
// The severity word may be translated, so look for the code pattern instead of "FATAL".
std::string findSqlstate(std::string_view message, size_t& codeEnd) {
    for (size_t at = message.find(": "); at != std::string_view::npos;
         at = message.find(": ", at + 1)) {
        size_t start = at + 2;
        while (start < message.size() && message[start] == ' ') ++start;
        if (start + 7 > message.size()) break;
        std::string_view code = message.substr(start, 5);
        bool valid = message.substr(start + 5, 2) == ": ";
        bool hasDigit = false;
        for (char c : code) {
            valid = valid && isSqlstateChar(c);
            hasDigit = hasDigit || std::isdigit(static_cast<unsigned char>(c));
        }
        // Every SQLSTATE has a digit; severity words ("FATAL") have none.
        valid = valid && hasDigit;
        if (valid) {
            codeEnd = start + 7;
            return std::string(code);
        }
    }
    return {};
}

// libpq reports TLS failures without a SQLSTATE. A certificate that does not verify or does not
// name the host, a CA or key file that is missing or unusable, a server without TLS when TLS is
// required: none of them passes on a retry, and the ABI counts a refused certificate as failed
// authentication. (libpq's messages are English unless the program sets a locale; in another
// language they stay retryable I/O errors, the safe side.)
bool isTlsSetupFailure(std::string_view message) {
    constexpr std::string_view kFragments[] = {"certificate verify failed",
                                               "does not match host name", "certificate file",
                                               "private key file", "server does not support SSL"};
    for (std::string_view fragment : kFragments) {
        if (message.find(fragment) != std::string_view::npos) return true;
    }
    return false;
}

}  // namespace

std::string safeMessage(std::string_view text, const std::string& secret) {
    return sdk::redactSecret(sdk::firstLine(text), secret);
}

sdk::DriverError resultError(const PGresult* result, PGconn* connection,
                             const std::string& context) {
    const char* state = result != nullptr ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
    const char* primary =
        result != nullptr ? PQresultErrorField(result, PG_DIAG_MESSAGE_PRIMARY) : nullptr;
    std::string sqlstate = state != nullptr ? state : "";
    std::string message = primary != nullptr ? primary : sdk::firstLine(PQerrorMessage(connection));
    if (message.empty()) message = "the server returned no result";

    sdk::ErrorClass kind = sdk::classifySqlstate(sqlstate);
    // A statement that failed without a SQLSTATE never reached the server or lost it.
    if (sqlstate.empty() || PQstatus(connection) == CONNECTION_BAD) kind = {TDG_IO, true};
    return sdk::DriverError(kind.status, context + ": " + sdk::firstLine(message), sqlstate,
                            kind.retryable);
}

sdk::DriverError connectError(PGconn* connection, const std::string& secret) {
    std::string full = connection != nullptr ? PQerrorMessage(connection) : "out of memory";
    size_t codeEnd = 0;
    std::string sqlstate = findSqlstate(full, codeEnd);
    std::string text = full;
    if (!sqlstate.empty()) {
        // Drop the code from the text: it travels in the sqlstate field.
        text = full.substr(0, codeEnd - 7) + full.substr(codeEnd);
    }
    sdk::ErrorClass kind = sdk::classifySqlstate(sqlstate);
    if (sqlstate.empty() && isTlsSetupFailure(text)) {
        kind = {TDG_UNAUTHENTICATED, false};
    } else if (sqlstate.empty() || kind.status == TDG_UNKNOWN) {
        kind = {TDG_IO, true};
    }
    return sdk::DriverError(kind.status,
                            "cannot connect to PostgreSQL: " + safeMessage(text, secret), sqlstate,
                            kind.retryable);
}

}  // namespace tapdiffgen::postgres

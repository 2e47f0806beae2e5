#include "tap-diffgen/sdk/errors.hpp"

#include <cstdlib>
#include <cstring>

namespace tapdiffgen::sdk {
namespace {

void releaseError(TdgError* error) {
    if (error == nullptr) return;
    std::free(error->message);
    std::memset(error, 0, sizeof(*error));
}

void fill(TdgError* error, const char* message, const std::string& sqlstate, bool retryable,
          int vendorCode) noexcept {
    if (error == nullptr) return;
    if (error->release != nullptr) error->release(error);
    std::memset(error, 0, sizeof(*error));
    const char* text = message != nullptr ? message : "unknown error";
    // One line: a multi-line server message would break the host's one-line error contract.
    size_t length = std::strlen(text);
    error->message = static_cast<char*>(std::malloc(length + 1));
    if (error->message != nullptr) {
        for (size_t i = 0; i < length; ++i) {
            char c = text[i];
            error->message[i] = (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
        }
        while (length > 0 && error->message[length - 1] == ' ') --length;
        error->message[length] = '\0';
    }
    std::strncpy(error->sqlstate, sqlstate.c_str(), 5);
    error->retryable = retryable ? 1 : 0;
    error->vendor_code = vendorCode;
    error->release = &releaseError;
}

}  // namespace

void setError(TdgError* error, const DriverError& failure) noexcept {
    fill(error, failure.what(), failure.sqlstate(), failure.retryable(), failure.vendorCode());
}

void setError(TdgError* error, TdgStatus status, const char* message) noexcept {
    fill(error, message, {}, status == TDG_IO, 0);
}

ErrorClass classifySqlstate(std::string_view sqlstate) {
    auto is = [&](std::initializer_list<std::string_view> codes) {
        for (std::string_view code : codes) {
            if (sqlstate == code) return true;
        }
        return false;
    };
    const std::string_view cls = sqlstate.substr(0, 2);
    if (sqlstate.size() != 5) return {TDG_UNKNOWN, false};
    if (cls == "08") return {TDG_IO, true};
    if (cls == "28") return {TDG_UNAUTHENTICATED, false};
    if (sqlstate == "42501") return {TDG_UNAUTHORIZED, false};
    if (is({"3D000", "3F000", "42P01", "42S02", "42703", "42S22"})) return {TDG_NOT_FOUND, false};
    if (is({"57014", "HY008"})) return {TDG_CANCELLED, false};
    if (is({"40001", "40P01", "57P01", "57P02", "57P03"}) || cls == "53") return {TDG_IO, true};
    if (cls == "22") return {TDG_INVALID_DATA, false};
    if (cls == "42") return {TDG_INVALID_ARGUMENT, false};
    return {TDG_UNKNOWN, false};
}

std::string redactSecret(std::string text, std::string_view secret) {
    if (secret.empty()) return text;
    for (size_t at = text.find(secret); at != std::string::npos; at = text.find(secret, at + 3)) {
        text.replace(at, secret.size(), "***");
    }
    return text;
}

std::string firstLine(std::string_view text) {
    std::string line(text.substr(0, text.find('\n')));
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) {
        line.pop_back();
    }
    return line;
}

}  // namespace tapdiffgen::sdk

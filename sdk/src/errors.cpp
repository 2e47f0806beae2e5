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

}  // namespace tapdiffgen::sdk

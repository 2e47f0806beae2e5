#include "abi_error.hpp"

#include <stdexcept>

#include "plugin/dialect_connection.hpp"

namespace tapdiffgen::conformance {

std::string takeErrorMessage(TdgError& error) {
    std::string message = error.message != nullptr ? error.message : "";
    if (error.release != nullptr) error.release(&error);
    return message;
}

std::string describeStatus(TdgStatus status) {
    return std::string(core::statusName(status)) + " (" + std::to_string(status) + ")";
}

TdgStatus statusFromName(const std::string& name) {
    for (TdgStatus status = TDG_OK; status <= TDG_INTERNAL; ++status) {
        if (name == core::statusName(status)) return status;
    }
    throw std::invalid_argument("unknown status name '" + name + "'");
}

}  // namespace tapdiffgen::conformance

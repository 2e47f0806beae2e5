// Reading and releasing a TdgError the way the host must: exactly once, through the plugin's
// own release callback.
#pragma once

#include <string>

#include "tap-diffgen/dialect_abi.h"

namespace tapdiffgen::conformance {

/// The error's message ("" when the plugin set none); releases the error.
std::string takeErrorMessage(TdgError& error);

/// "INVALID_ARGUMENT (4)" for messages.
std::string describeStatus(TdgStatus status);

/// The status whose name is `name` ("NOT_FOUND"); throws std::invalid_argument when unknown.
TdgStatus statusFromName(const std::string& name);

}  // namespace tapdiffgen::conformance

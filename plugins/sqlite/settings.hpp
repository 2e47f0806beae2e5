// The tap's settings as the SQLite plugin reads them. A SQLite database is a file, so only
// `database` (its path) and `connect_timeout` matter; the server settings every other dialect
// needs are accepted and ignored, so one config shape serves all dialects.
#pragma once

#include <string>

#include "tap-diffgen/sdk/types.hpp"

namespace tapdiffgen::sqlite {

struct Settings {
    /// The database file, as given (relative paths are relative to the tap's working directory).
    std::string path;
    /// How long a read waits for a writer's lock before failing, in milliseconds.
    int busyTimeoutMs = 10000;

    /// Throws DriverError(TDG_INVALID_ARGUMENT) when `database` is missing or the timeout is
    /// out of range; logs each ignored setting at debug level.
    static Settings from(const sdk::ConnectOptions& options);
};

}  // namespace tapdiffgen::sqlite

// The cancel request of one connection: set by TdgDriver.cancel from any thread, forgotten when
// the next call starts (DriverBase does both), and looked at by the driver's long loops between
// statements and rows. Since SDK 0.2.0.
#pragma once

#include <atomic>
#include <string>

#include "tap-diffgen/sdk/errors.hpp"

namespace tapdiffgen::sdk {

class CallCancel {
public:
    void request() noexcept { requested_.store(true); }
    /// A cancel aimed at an earlier call must not stop the one starting now.
    void reset() noexcept { requested_.store(false); }
    bool requested() const noexcept { return requested_.load(std::memory_order_relaxed); }
    /// Throws DriverError(TDG_CANCELLED, "<what>: cancelled") when a cancel was requested.
    void throwIfRequested(const std::string& what = "the call") const {
        if (requested()) throw DriverError(TDG_CANCELLED, what + ": cancelled");
    }

private:
    std::atomic<bool> requested_{false};
};

}  // namespace tapdiffgen::sdk

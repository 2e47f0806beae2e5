// The host's log, as connect() handed it over: lines go to the tap's stderr with its levels.
// Callable from any thread during any call. Since SDK 0.2.0.
#pragma once

#include <string>

#include "tap-diffgen/dialect_abi.h"

namespace tapdiffgen::sdk {

class HostLog {
public:
    HostLog() = default;
    explicit HostLog(const TdgConnectParams& params)
        : logFn_(params.log), logContext_(params.log_context) {}

    void log(int level, const std::string& message) const {
        if (logFn_ != nullptr) logFn_(logContext_, level, message.c_str());
    }
    void debug(const std::string& message) const { log(TDG_LOG_DEBUG, message); }
    void info(const std::string& message) const { log(TDG_LOG_INFO, message); }
    void warn(const std::string& message) const { log(TDG_LOG_WARNING, message); }

private:
    void (*logFn_)(void*, int32_t, const char*) = nullptr;
    void* logContext_ = nullptr;
};

}  // namespace tapdiffgen::sdk

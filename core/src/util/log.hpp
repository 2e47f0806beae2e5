// Logging to stderr in the Meltano SDK's line shape:
//   2026-11-30 10:00:00,123 | INFO     | tap-diffgen | message
// stdout is reserved for Singer messages, so nothing here ever writes to it.
#pragma once

#include <string>

#include "tap-diffgen/dialect_abi.h"

namespace tapdiffgen::core::log {

enum Level {
    Debug = TDG_LOG_DEBUG,
    Info = TDG_LOG_INFO,
    Warning = TDG_LOG_WARNING,
    Error = TDG_LOG_ERROR
};

/// Lines below `level` are dropped.
void setLevel(int level);
int level();
/// "debug", "info", "warning", "error" → level; unknown names mean info.
int levelFromName(const std::string& name);

void write(int level, const std::string& message);
inline void debug(const std::string& message) { write(Debug, message); }
inline void info(const std::string& message) { write(Info, message); }
inline void warning(const std::string& message) { write(Warning, message); }
inline void error(const std::string& message) { write(Error, message); }

}  // namespace tapdiffgen::core::log

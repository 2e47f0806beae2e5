// What each setting is when the configuration leaves it out, said once. The settings catalogue
// (settings.cpp) publishes these in --about, the JSON Schema, .env.example and the Meltano
// definition and fills them in when it parses a configuration; TapConfig and SyncOptions start
// from the same constants, so no default can say one thing in --about and do another in a run.
#pragma once

#include <cstdint>
#include <string_view>

namespace tapdiffgen::core::setting_defaults {

inline constexpr std::string_view kDiffgenTable = "diffgen";
inline constexpr int64_t kPageSize = 10000;
/// 0: three times page_size, growing over many tables (PageSizer).
inline constexpr int64_t kMaxPageSize = 0;
inline constexpr bool kReadAhead = true;
inline constexpr int64_t kRepullSessions = 2;
inline constexpr bool kAddSdcDeletedAt = true;
inline constexpr int64_t kConnectTimeout = 10;
inline constexpr std::string_view kLogLevel = "info";
/// 0: no limit.
inline constexpr int64_t kMaxRunSeconds = 0;
inline constexpr std::string_view kOnBadEvent = "fail";
inline constexpr int64_t kHorizonSettleSeconds = 10;
inline constexpr int64_t kHorizonWaitSeconds = 30;
inline constexpr bool kAcceptCachedSequence = false;
inline constexpr int64_t kReconnectAttempts = 5;
inline constexpr int64_t kReconnectMaxWaitSeconds = 30;
inline constexpr bool kFlatteningEnabled = false;
inline constexpr bool kFollow = false;
/// 0: never.
inline constexpr int64_t kIdleExitSeconds = 0;
inline constexpr int64_t kPollIntervalSeconds = 1;
inline constexpr int64_t kStateIntervalSeconds = 30;
inline constexpr bool kSshTunnelEnable = false;
inline constexpr int64_t kSshTunnelPort = 22;
/// Keys of a `tables` entry.
inline constexpr std::string_view kTableMode = "full";
inline constexpr std::string_view kTableStartFrom = "beginning";

}  // namespace tapdiffgen::core::setting_defaults

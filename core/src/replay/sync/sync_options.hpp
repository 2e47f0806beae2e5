// The settings one sync runs by: read from the configuration once (syncOptionsFrom) and read
// by reference by every part of the run, so that each lives in one place.
#pragma once

#include <cstddef>
#include <cstdint>

#include "config/setting_defaults.hpp"
#include "config/tap_config.hpp"
#include "plugin/table_ref.hpp"
#include "replay/scan/page_sizer.hpp"

namespace tapdiffgen::core {

struct SyncOptions {
    TableRef diffgen;
    int64_t pageSize = setting_defaults::kPageSize;
    /// Pages of a backlog, after the first full one (PageSizer).
    BacklogPages backlogPages;
    bool skipBadEvents = false;
    double horizonSettleSeconds = setting_defaults::kHorizonSettleSeconds;
    int64_t horizonWaitSeconds = setting_defaults::kHorizonWaitSeconds;
    /// After the log's head, keep reading new events until the run's clock says stop.
    bool follow = setting_defaults::kFollow;
    double pollIntervalSeconds = setting_defaults::kPollIntervalSeconds;
    double stateIntervalSeconds = setting_defaults::kStateIntervalSeconds;
    int64_t maxRunSeconds = setting_defaults::kMaxRunSeconds;
    int64_t idleExitSeconds = setting_defaults::kIdleExitSeconds;
    int64_t reconnectAttempts = setting_defaults::kReconnectAttempts;
    int64_t reconnectMaxWaitSeconds = setting_defaults::kReconnectMaxWaitSeconds;
    bool readAhead = setting_defaults::kReadAhead;
    /// Sessions a page's re-pulls are shared between, the replay's own one included.
    int64_t repullSessions = setting_defaults::kRepullSessions;

    // The engine's own bounds, not settings (tests lower them).
    size_t maxPendingRanges = 16;
    /// Ids of pending ranges kept for deduplication (8 bytes each) before reading stops.
    size_t maxHeldIds = 1000000;
    int64_t keysPerFetch = 10000;
    double progressIntervalSeconds = 10;
    /// Between two progress lines of a snapshot.
    double snapshotProgressSeconds = 5;
};

SyncOptions syncOptionsFrom(const TapConfig& config);

}  // namespace tapdiffgen::core

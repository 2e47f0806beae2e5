// The settings one sync runs by: read from the configuration once (syncOptionsFrom) and read
// by reference by every part of the run, so that each lives in one place. The settings' fields
// have no defaults of their own: syncOptionsFrom fills every one of them from TapConfig, whose
// values and defaults come from the catalogue's descriptors (config/settings.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "config/table_ref.hpp"
#include "config/tap_config.hpp"
#include "replay/scan/page_sizer.hpp"

namespace tapdiffgen::core {

struct SyncOptions {
    TableRef diffgen;
    int64_t pageSize{};
    /// Pages of a backlog, after the first full one (PageSizer).
    BacklogPages backlogPages;
    bool skipBadEvents = false;
    double horizonSettleSeconds{};
    int64_t horizonWaitSeconds{};
    /// After the log's head, keep reading new events until the run's clock says stop.
    bool follow{};
    double pollIntervalSeconds{};
    double stateIntervalSeconds{};
    int64_t maxRunSeconds{};
    int64_t idleExitSeconds{};
    int64_t reconnectAttempts{};
    int64_t reconnectMaxWaitSeconds{};
    bool readAhead{};
    /// Sessions a page's re-pulls are shared between, the replay's own one included.
    int64_t repullSessions{};

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

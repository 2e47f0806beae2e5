#include "replay/sync/sync_options.hpp"

namespace tapdiffgen::core {

SyncOptions syncOptionsFrom(const TapConfig& config) {
    SyncOptions options;
    options.diffgen = config.diffgen;
    options.pageSize = config.pageSize;
    options.backlogPages = BacklogPages{config.maxPageSize, config.widestPageSize};
    options.skipBadEvents = config.onBadEvent == BadEventPolicy::Skip;
    options.horizonSettleSeconds = config.horizonSettleSeconds;
    options.horizonWaitSeconds = config.horizonWaitSeconds;
    options.follow = config.follow;
    options.pollIntervalSeconds = config.pollIntervalSeconds;
    options.stateIntervalSeconds = config.stateIntervalSeconds;
    options.maxRunSeconds = config.maxRunSeconds;
    options.idleExitSeconds = config.follow ? config.idleExitSeconds : 0;
    options.reconnectAttempts = config.reconnectAttempts;
    options.reconnectMaxWaitSeconds = config.reconnectMaxWaitSeconds;
    options.readAhead = config.readAhead;
    options.repullSessions = config.repullSessions;
    return options;
}

}  // namespace tapdiffgen::core

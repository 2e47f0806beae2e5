// What a sync run owns across its connections, lent to each phase that runs on one of them
// (the snapshots, the replay): the settings, the output, the streams, how their outputs are made
// again when a table changes, their state, the run's clock and its ledger.
#pragma once

#include <vector>

#include "replay/sync/run_ledger.hpp"
#include "replay/sync/stream_runtime.hpp"
#include "replay/sync/sync_options.hpp"
#include "replay/timing/run_clock.hpp"
#include "singer/message_writer.hpp"
#include "state/tap_state.hpp"

namespace tapdiffgen::core {

struct RunScope {
    const SyncOptions& options;
    MessageWriter& writer;
    std::vector<StreamRuntime>& streams;
    const StreamOutputs& outputs;
    TapState& state;
    RunClock& clock;
    RunLedger& ledger;
};

}  // namespace tapdiffgen::core

// What a sync run owns across its connections, lent to each phase that runs on one of them
// (the snapshots, the replay): the settings, the output, the streams, how their outputs are made
// again when a table changes, their state and the one writer of its STATE messages, the run's
// clock, and those who watch it.
#pragma once

#include <vector>

#include "replay/observe/run_observer.hpp"
#include "replay/sync/checkpointer.hpp"
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
    Checkpointer& checkpointer;
    RunClock& clock;
    RunObserver& observer;
};

}  // namespace tapdiffgen::core

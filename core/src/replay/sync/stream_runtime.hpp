// A selected stream during a sync: where it stands in the log (its state, what the scan sees)
// and how its rows are fetched and written (its channel, what the output sees).
#pragma once

#include <vector>

#include "catalog/stream_definition.hpp"
#include "replay/model/stream_state.hpp"
#include "replay/output/stream_channel.hpp"

namespace tapdiffgen::core {

struct StreamRuntime : StreamState, StreamChannel {
    StreamRuntime(size_t index, const StreamDefinition& selected) : StreamState(index, selected) {}
};

/// The runtimes of the selected streams, in configuration order, each with its output: its
/// stream maps and flattening when the configuration gives any, else the plain renderer.
std::vector<StreamRuntime> streamRuntimesOf(const std::vector<StreamDefinition>& definitions,
                                            const StreamOutputs& outputs);

}  // namespace tapdiffgen::core

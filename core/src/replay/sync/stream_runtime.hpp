// A selected stream during a sync: its place in the run, how its rows are fetched and where its
// records go, and where it stands in the log.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "catalog/stream_definition.hpp"
#include "config/tap_config.hpp"
#include "replay/output/record_renderer.hpp"
#include "replay/output/stream_output.hpp"
#include "replay/scan/page_plan.hpp"

namespace tapdiffgen::core {

struct StreamRuntime {
    StreamRuntime(const StreamDefinition& definition, size_t index,
                  std::unique_ptr<StreamOutput> output,
                  std::shared_ptr<const RecordRenderer> renderer);

    const StreamDefinition* definition;
    /// Its index in the run's stream list (StreamSet, RunLedger).
    size_t index;
    /// The selected columns as they are fetched: names, kinds, where the key stands.
    std::shared_ptr<const RecordRenderer> renderer;
    StreamKeyRule keyRule;
    std::unique_ptr<StreamOutput> output;
    /// Every diffgen id <= cursor has been read for this stream in this run (or before it).
    int64_t cursor = 0;
    /// Whether the stream takes part in the log scan (false while it awaits its snapshot, and
    /// for the rest of a run that had to postpone it).
    bool replaying = true;
    /// Its table is to be read before it replays: no bookmark, and start_from says so.
    bool awaitsSnapshot = false;
};

/// The runtimes of the selected streams, in configuration order, each with its output: its
/// stream maps and flattening when the configuration gives any, compiled and checked here,
/// before any output (throws maps::StreamMapError), else the plain renderer.
std::vector<StreamRuntime> streamRuntimesOf(const std::vector<StreamDefinition>& definitions,
                                            const TapConfig& config);

}  // namespace tapdiffgen::core

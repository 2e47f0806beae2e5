// A selected stream during a sync: its place in the run, how its rows are fetched and where its
// records go, and where it stands in the log.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "catalog/stream_definition.hpp"
#include "config/tap_config.hpp"
#include "maps/stream_setup.hpp"
#include "replay/output/record_renderer.hpp"
#include "replay/output/stream_output.hpp"
#include "replay/scan/page_plan.hpp"

namespace tapdiffgen::core {

struct StreamRuntime {
    explicit StreamRuntime(size_t index) : index(index) {}

    /// The stream as its table is described now: replaced, with the renderer and the output,
    /// when the table changes during the run (SchemaWatch), so a reader keeps its own pointer
    /// only for as long as it reads one page.
    std::shared_ptr<const StreamDefinition> definition;
    /// Its index in the run's stream list (StreamSet, RunLedger).
    size_t index;
    /// The selected columns as they are fetched: names, kinds, where the key stands.
    std::shared_ptr<const RecordRenderer> renderer;
    /// The key rule pages are planned by; its key outlives a change of the definition (the key
    /// itself never changes during a run).
    StreamKeyRule keyRule;
    std::unique_ptr<StreamOutput> output;
    /// Every diffgen id <= cursor has been read for this stream in this run (or before it).
    int64_t cursor = 0;
    /// Whether the stream takes part in the log scan (false while it awaits its snapshot, and
    /// for the rest of a run that had to postpone it).
    bool replaying = true;
    /// Stopped for the rest of the run before an event whose key it cannot read: its cursor
    /// stays before that event, and its bookmark with it.
    bool stopped = false;
    /// Its table is to be read before it replays: no bookmark, and start_from says so.
    bool awaitsSnapshot = false;
};

/// How each selected stream's renderer and output are made from its definition: once for the
/// run, with its stream maps and flattening compiled and checked against the configured
/// streams before any output, and again for a stream whose table changed.
class StreamOutputs {
public:
    /// Checks the stream maps against `definitions` (throws maps::StreamMapError) and warns of
    /// maps no configured stream has. `config` must outlive the object.
    StreamOutputs(const TapConfig& config, const std::vector<StreamDefinition>& definitions);

    /// Gives `stream` this definition, and the renderer and output made for it; returns the
    /// names of the streams that output writes. Throws maps::StreamMapError when the stream's
    /// maps do not compile for it.
    std::vector<maps::OutputName> assign(StreamRuntime& stream,
                                         std::shared_ptr<const StreamDefinition> definition) const;

private:
    const TapConfig& config_;
    bool mapped_ = false;
};

/// The runtimes of the selected streams, in configuration order, each with its output: its
/// stream maps and flattening when the configuration gives any, else the plain renderer.
std::vector<StreamRuntime> streamRuntimesOf(const std::vector<StreamDefinition>& definitions,
                                            const StreamOutputs& outputs);

}  // namespace tapdiffgen::core

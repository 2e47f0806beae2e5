// How a selected stream's rows are fetched and where its records go: what an output needs of a
// stream. Where the stream stands in the log is its state's (replay/model/stream_state.hpp).
#pragma once

#include <memory>
#include <vector>

#include "catalog/stream_definition.hpp"
#include "config/tap_config.hpp"
#include "maps/stream_setup.hpp"
#include "replay/output/record_renderer.hpp"
#include "replay/output/stream_output.hpp"
#include "replay/scan/page_plan.hpp"

namespace tapdiffgen::core {

struct StreamChannel {
    /// The stream as its table is described now: replaced, with the renderer and the output,
    /// when the table changes during the run (SchemaWatch), so a reader keeps its own pointer
    /// only for as long as it reads one page.
    std::shared_ptr<const StreamDefinition> definition;
    /// The selected columns as they are fetched: names, kinds, where the key stands.
    std::shared_ptr<const RecordRenderer> renderer;
    /// The key rule pages are planned by; its key outlives a change of the definition (the key
    /// itself never changes during a run).
    StreamKeyRule keyRule;
    std::unique_ptr<StreamOutput> output;
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
    std::vector<maps::OutputName> assign(StreamChannel& stream,
                                         std::shared_ptr<const StreamDefinition> definition) const;

private:
    const TapConfig& config_;
    bool mapped_ = false;
};

}  // namespace tapdiffgen::core

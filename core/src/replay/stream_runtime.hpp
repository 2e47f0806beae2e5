// A selected stream during a sync: how it renders, how its keys compare, where it stands.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "catalog/stream_definition.hpp"
#include "maps/stream_mapper.hpp"
#include "replay/page_plan.hpp"
#include "replay/record_renderer.hpp"

namespace tapdiffgen::core {

struct StreamRuntime {
    explicit StreamRuntime(const StreamDefinition& definition);

    const StreamDefinition* definition;
    RecordRenderer renderer;
    StreamKeyRule keyRule;
    /// Every diffgen id <= cursor has been read for this stream in this run (or before it).
    int64_t cursor = 0;
    /// Whether the stream takes part in the log scan (false while it awaits its snapshot).
    bool replaying = true;
    uint64_t recordCount = 0;
    /// Set when stream maps or flattening apply: the records go through it instead of the
    /// renderer.
    std::shared_ptr<maps::StreamMapper> mapper;
};

}  // namespace tapdiffgen::core

// stream_maps, stream_map_config and flattening, the Meltano Singer SDK's settings of those
// names, read once when the configuration is loaded; maps/ compiles them against the streams.
#pragma once

#include <Poco/JSON/Object.h>

#include <cstdint>

namespace tapdiffgen::core {

struct StreamMapSettings {
    /// The stream_maps object; null when not set.
    Poco::JSON::Object::Ptr streamMaps;
    /// The stream_map_config object (`config` in expressions); null when not set.
    Poco::JSON::Object::Ptr streamMapConfig;
    /// flattening_enabled and flattening_max_depth, stored by their descriptors (TapConfig()).
    bool flatteningEnabled{};
    int64_t flatteningMaxDepth{};
};

}  // namespace tapdiffgen::core

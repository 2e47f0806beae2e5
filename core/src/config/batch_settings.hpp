// batch_config, the Meltano Singer SDK's BATCH setting, read once when the configuration is
// loaded: records go to JSON-lines files under a file:// storage root (singer/batch_writer.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "util/json_value.hpp"

namespace tapdiffgen::core {

/// batch_config.batch_size when not given; the catalogue's description of batch_config says it.
inline constexpr int64_t kDefaultBatchSize = 10000;

/// The URL scheme of the one storage the tap writes batches to.
inline constexpr const char* kFileScheme = "file://";

struct BatchSettings {
    bool gzip = true;
    std::string root;    // a local folder (the file:// URL's path)
    std::string prefix;  // prepended to every file name
    int64_t batchSize = kDefaultBatchSize;
};

/// batch_config as the SDK reads it; nullopt when not set. Throws ConfigError naming the key.
std::optional<BatchSettings> parseBatchSettings(const JsonValue& value);

}  // namespace tapdiffgen::core

// Builds the mapper of each selected stream from the configuration, before any output: a
// stream with no map (and no flattening) gets none, and keeps the renderer's direct path.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "catalog/stream_definition.hpp"
#include "config/tap_config.hpp"
#include "maps/stream_mapper.hpp"

namespace tapdiffgen::core::maps {

StreamMapSettings settingsOf(const TapConfig& config);

/// Whether the configuration maps or flattens anything.
bool mapsConfigured(const TapConfig& config);

/// The stream as the tap emits it without maps: its properties in record order with their
/// schemas, its key and its whole schema.
SourceStream sourceStreamOf(const StreamDefinition& definition);

/// An output stream's name and what makes it.
struct OutputName {
    std::string name;    ///< the stream its messages name
    std::string origin;  ///< "stream 'a'", ... (OutputStream::origin)
};

/// The output streams of a selected stream: its mapper's, or the stream itself (no mapper).
std::vector<OutputName> outputNamesOf(const std::string& stream, const StreamMapper* mapper);

/// Refuses two output streams under one name, whose SCHEMA and RECORD messages would mix.
/// Throws StreamMapError naming both.
void checkOutputNames(const std::vector<OutputName>& outputs);

/// The mapper of one stream, or nullptr when its records pass through unchanged, from maps
/// checkStreamMaps has passed (once, for every stream). Throws StreamMapError.
std::shared_ptr<StreamMapper> mapperFor(const TapConfig& config,
                                        const StreamDefinition& definition);

}  // namespace tapdiffgen::core::maps

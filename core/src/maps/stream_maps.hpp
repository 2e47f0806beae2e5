// The `stream_maps` setting compiled against the streams of a run: for every source stream, the
// output streams it feeds (itself, renamed, or extra ones through `__source__`), each with its
// filter, its properties (passed through or computed) and the SCHEMA the Meltano Singer SDK
// would derive for it. Everything is checked here, before any output.
#pragma once

#include <Poco/Dynamic/Var.h>

#include <optional>
#include <string>
#include <vector>

#include "config/stream_map_settings.hpp"
#include "config/tap_config.hpp"
#include "maps/expression.hpp"
#include "maps/flattening.hpp"
#include "maps/schema.hpp"

namespace tapdiffgen::core::maps {

/// A stream map that cannot be used, or an expression that failed on a record; what() is one
/// line naming the stream, the property and the expression.
class StreamMapError : public ConfigError {
public:
    using ConfigError::ConfigError;
};

/// Throws the StreamMapError of an expression: "stream_maps: stream 's', property 'p',
/// [record id=7, ]expression 'e': problem" (the record only when one is given).
[[noreturn]] void failExpression(const std::string& stream, const std::string& property,
                                 const std::string& record, const std::string& expression,
                                 const std::string& problem);

/// A source stream as the tap emits it without maps.
struct SourceStream {
    std::string name;
    std::vector<std::string> keyProperties;
    /// The whole stream schema (what `record` is typed as), its properties in record order.
    SchemaPtr schema;
};

struct OutputProperty {
    std::string name;
    std::optional<size_t> passthrough;  // the input slot copied as it is
    std::optional<Expression> expression;
    std::string expressionText;
};

struct OutputStream {
    std::string name;
    /// What makes it, for messages: "stream 'a'", "stream 'a' through its __alias__", "'copy'
    /// through its __source__ 'a'".
    std::string origin;
    std::vector<std::string> keyProperties;
    std::vector<OutputProperty> properties;  // in record order
    SchemaPtr schema;
    std::optional<Expression> filter;
    std::string filterText;
    bool usesRecord = false;
    /// The source stream as it is: no map and no flattening apply to it.
    bool unchanged = false;
    /// With flattening: the record's properties as written (replacing `properties` there).
    bool flattened = false;
    std::vector<FlatProperty> flat;

    /// The schema as the SCHEMA message carries it.
    std::string schemaJson() const;
};

/// Whether any map is configured at all.
bool hasStreamMaps(const StreamMapSettings& settings);

/// The output streams of `source`, in the order the SDK writes them (none when the stream is
/// mapped to null), from settings checkStreamMaps has passed. Throws StreamMapError.
std::vector<OutputStream> compileStreamMaps(const StreamMapSettings& settings,
                                            const SourceStream& source);

/// Checks what does not depend on one stream: the top-level keys and `__source__` names.
/// Throws StreamMapError.
void checkStreamMaps(const StreamMapSettings& settings,
                     const std::vector<std::string>& configuredStreams);

/// The stream_maps keys that name no configured stream and have no __source__: maps that
/// apply to nothing (the SDK ignores them silently; a typo is likely).
std::vector<std::string> unusedStreamMaps(const StreamMapSettings& settings,
                                          const std::vector<std::string>& configuredStreams);

}  // namespace tapdiffgen::core::maps

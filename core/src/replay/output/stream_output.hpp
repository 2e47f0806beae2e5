// Where a stream's records go, chosen once per stream when the run is set up: rendered straight
// from the cells (RenderedOutput), or through the stream's maps and flattening (MappedOutput),
// which may write several output streams or none. Every record of the run, re-pulled, late,
// snapshotted or a tombstone, goes through its stream's output.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/stream_definition.hpp"
#include "keys/row_key.hpp"
#include "maps/stream_mapper.hpp"
#include "replay/output/record_renderer.hpp"
#include "singer/message_writer.hpp"
#include "singer/record_sink.hpp"

namespace tapdiffgen::core {

/// What a SCHEMA message says of one output stream.
struct SchemaMessage {
    std::string stream;
    std::string schemaJson;
    std::vector<std::string> keyProperties;

    bool operator==(const SchemaMessage&) const = default;
};

class StreamOutput {
public:
    virtual ~StreamOutput() = default;

    /// The SCHEMA of each stream this one writes to.
    virtual std::vector<SchemaMessage> schemas() const = 0;
    /// Writes them.
    void writeSchemas(MessageWriter& writer) const;
    /// Writes a live row (one cell per selected column, in fetch order); returns how many
    /// records that made.
    virtual uint64_t writeRow(RecordSink& sink, const TdgCell* cells, std::string_view tsCreated,
                              std::string_view timeExtracted) = 0;
    /// Writes a tombstone of `key`; returns how many records that made.
    virtual uint64_t writeTombstone(RecordSink& sink, const RowKey& key, std::string_view tsCreated,
                                    std::string_view deletedAt, std::string_view timeExtracted) = 0;
    /// Whether rows may be written from several threads at once (the shares of a page's
    /// re-pulls, each on a thread of its own).
    virtual bool concurrent() const = 0;
};

/// The stream's own records, rendered from the cells with no copy on the way.
std::unique_ptr<StreamOutput> renderedOutput(std::shared_ptr<const StreamDefinition> definition,
                                             std::shared_ptr<const RecordRenderer> renderer);

/// The records its maps and flattening make of each row.
std::unique_ptr<StreamOutput> mappedOutput(std::shared_ptr<maps::StreamMapper> mapper);

}  // namespace tapdiffgen::core

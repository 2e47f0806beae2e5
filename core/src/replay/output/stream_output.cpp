#include "replay/output/stream_output.hpp"

namespace tapdiffgen::core {

void StreamOutput::writeSchemas(MessageWriter& writer) const {
    for (const SchemaMessage& schema : schemas()) {
        writer.writeSchema(schema.stream, schema.schemaJson, schema.keyProperties);
    }
}

namespace {

class RenderedOutput final : public StreamOutput {
public:
    RenderedOutput(std::shared_ptr<const StreamDefinition> definition,
                   std::shared_ptr<const RecordRenderer> renderer)
        : definition_(std::move(definition)), renderer_(std::move(renderer)) {}

    std::vector<SchemaMessage> schemas() const override {
        return {{definition_->name, definition_->schemaJson(), definition_->key.names()}};
    }
    uint64_t writeRow(RecordSink& sink, const TdgCell* cells, std::string_view tsCreated,
                      std::string_view timeExtracted) override {
        std::string& out = sink.beginRecord(definition_->name);
        renderer_->appendRow(out, cells, tsCreated);
        sink.endRecord(timeExtracted);
        return 1;
    }
    uint64_t writeTombstone(RecordSink& sink, const RowKey& key, std::string_view tsCreated,
                            std::string_view deletedAt, std::string_view timeExtracted) override {
        std::string& out = sink.beginRecord(definition_->name);
        renderer_->appendTombstone(out, key, tsCreated, deletedAt);
        sink.endRecord(timeExtracted);
        return 1;
    }
    bool concurrent() const override { return true; }

private:
    std::shared_ptr<const StreamDefinition> definition_;
    std::shared_ptr<const RecordRenderer> renderer_;
};

// A mapper keeps the row it works on, so one stream's rows are mapped on one thread.
class MappedOutput final : public StreamOutput {
public:
    explicit MappedOutput(std::shared_ptr<maps::StreamMapper> mapper)
        : mapper_(std::move(mapper)) {}

    std::vector<SchemaMessage> schemas() const override {
        std::vector<SchemaMessage> schemas;
        for (const auto& output : mapper_->outputs()) {
            schemas.push_back({output.name, output.schemaJson(), output.keyProperties});
        }
        return schemas;
    }
    uint64_t writeRow(RecordSink& sink, const TdgCell* cells, std::string_view tsCreated,
                      std::string_view timeExtracted) override {
        return mapper_->emitRow(sink, cells, tsCreated, timeExtracted);
    }
    uint64_t writeTombstone(RecordSink& sink, const RowKey& key, std::string_view tsCreated,
                            std::string_view deletedAt, std::string_view timeExtracted) override {
        return mapper_->emitTombstone(sink, key, tsCreated, deletedAt, timeExtracted);
    }
    bool concurrent() const override { return false; }

private:
    std::shared_ptr<maps::StreamMapper> mapper_;
};

}  // namespace

std::unique_ptr<StreamOutput> renderedOutput(std::shared_ptr<const StreamDefinition> definition,
                                             std::shared_ptr<const RecordRenderer> renderer) {
    return std::make_unique<RenderedOutput>(std::move(definition), std::move(renderer));
}

std::unique_ptr<StreamOutput> mappedOutput(std::shared_ptr<maps::StreamMapper> mapper) {
    return std::make_unique<MappedOutput>(std::move(mapper));
}

}  // namespace tapdiffgen::core

#include "replay/sync/stream_runtime.hpp"

#include "maps/stream_setup.hpp"
#include "util/log.hpp"

namespace tapdiffgen::core {

StreamOutputs::StreamOutputs(const TapConfig& config,
                             const std::vector<StreamDefinition>& definitions)
    : config_(config), mapped_(maps::mapsConfigured(config)) {
    if (!mapped_) return;
    // Stream maps are compiled against the configured streams before anything is written.
    for (const auto& definition : definitions) configured_.push_back(definition.name);
    maps::checkStreamMaps(maps::settingsOf(config), configured_);
    for (const auto& name : maps::unusedStreamMaps(maps::settingsOf(config), configured_)) {
        log::warning("stream_maps: '" + name +
                     "' is not a configured stream; its map applies to nothing");
    }
}

void StreamOutputs::assign(StreamRuntime& stream,
                           std::shared_ptr<const StreamDefinition> definition) const {
    auto renderer = std::make_shared<const RecordRenderer>(*definition);
    std::shared_ptr<maps::StreamMapper> mapper;
    if (mapped_) mapper = maps::mapperFor(config_, *definition, configured_);
    stream.output = mapper ? mappedOutput(std::move(mapper)) : renderedOutput(definition, renderer);
    stream.renderer = std::move(renderer);
    stream.keyRule.key = std::shared_ptr<const KeySpec>(definition, &definition->key);
    stream.keyRule.tombstonesOnly = definition->mode == StreamMode::TombstonesOnly;
    stream.definition = std::move(definition);
}

std::vector<StreamRuntime> streamRuntimesOf(const std::vector<StreamDefinition>& definitions,
                                            const StreamOutputs& outputs) {
    std::vector<StreamRuntime> streams;
    for (const auto& definition : definitions) {
        if (!definition.selected) continue;
        StreamRuntime& stream = streams.emplace_back(streams.size());
        outputs.assign(stream, std::make_shared<const StreamDefinition>(definition));
    }
    return streams;
}

}  // namespace tapdiffgen::core

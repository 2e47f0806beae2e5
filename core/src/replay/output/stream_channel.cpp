#include "replay/output/stream_channel.hpp"

#include "maps/stream_setup.hpp"
#include "util/log.hpp"

namespace tapdiffgen::core {

StreamOutputs::StreamOutputs(const TapConfig& config,
                             const std::vector<StreamDefinition>& definitions)
    : config_(config), mapped_(maps::mapsConfigured(config)) {
    if (!mapped_) return;
    // Stream maps are compiled against the configured streams before anything is written.
    std::vector<std::string> configured;
    for (const auto& definition : definitions) configured.push_back(definition.name);
    maps::checkStreamMaps(maps::settingsOf(config), configured);
    for (const auto& name : maps::unusedStreamMaps(maps::settingsOf(config), configured)) {
        log::warning("stream_maps: '" + name +
                     "' is not a configured stream; its map applies to nothing");
    }
}

std::vector<maps::OutputName> StreamOutputs::assign(
    StreamChannel& stream, std::shared_ptr<const StreamDefinition> definition) const {
    auto renderer = std::make_shared<const RecordRenderer>(*definition);
    std::shared_ptr<maps::StreamMapper> mapper;
    if (mapped_) mapper = maps::mapperFor(config_, *definition);
    std::vector<maps::OutputName> names = maps::outputNamesOf(definition->name, mapper.get());
    stream.output = mapper ? mappedOutput(std::move(mapper)) : renderedOutput(definition, renderer);
    stream.renderer = std::move(renderer);
    stream.keyRule.key = std::shared_ptr<const KeySpec>(definition, &definition->key);
    stream.keyRule.tombstonesOnly = definition->mode == StreamMode::TombstonesOnly;
    stream.keyRule.streamName = definition->name;
    stream.definition = std::move(definition);
    return names;
}

}  // namespace tapdiffgen::core

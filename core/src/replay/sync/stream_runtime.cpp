#include "replay/sync/stream_runtime.hpp"

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
    StreamRuntime& stream, std::shared_ptr<const StreamDefinition> definition) const {
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

std::vector<StreamRuntime> streamRuntimesOf(const std::vector<StreamDefinition>& definitions,
                                            const StreamOutputs& outputs) {
    std::vector<StreamRuntime> streams;
    // Two outputs of one name would interleave their SCHEMAs and records: refused here.
    std::vector<maps::OutputName> outputNames;
    for (const auto& definition : definitions) {
        if (!definition.selected) continue;
        StreamRuntime& stream = streams.emplace_back(streams.size());
        for (auto& name :
             outputs.assign(stream, std::make_shared<const StreamDefinition>(definition))) {
            outputNames.push_back(std::move(name));
        }
    }
    maps::checkOutputNames(outputNames);
    return streams;
}

}  // namespace tapdiffgen::core

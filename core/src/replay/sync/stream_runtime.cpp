#include "replay/sync/stream_runtime.hpp"

#include "maps/stream_setup.hpp"
#include "util/log.hpp"

namespace tapdiffgen::core {

StreamRuntime::StreamRuntime(const StreamDefinition& stream, size_t position,
                             std::unique_ptr<StreamOutput> streamOutput,
                             std::shared_ptr<const RecordRenderer> streamRenderer)
    : definition(&stream),
      index(position),
      renderer(std::move(streamRenderer)),
      output(std::move(streamOutput)) {
    keyRule.key = &stream.key;
    keyRule.tombstonesOnly = stream.mode == StreamMode::TombstonesOnly;
}

namespace {

// Stream maps are compiled against the configured streams before anything is written.
std::vector<std::string> checkedMapTargets(const TapConfig& config,
                                           const std::vector<StreamDefinition>& definitions) {
    std::vector<std::string> configured;
    for (const auto& definition : definitions) configured.push_back(definition.name);
    maps::checkStreamMaps(maps::settingsOf(config), configured);
    for (const auto& name : maps::unusedStreamMaps(maps::settingsOf(config), configured)) {
        log::warning("stream_maps: '" + name +
                     "' is not a configured stream; its map applies to nothing");
    }
    return configured;
}

}  // namespace

std::vector<StreamRuntime> streamRuntimesOf(const std::vector<StreamDefinition>& definitions,
                                            const TapConfig& config) {
    const bool mapped = maps::mapsConfigured(config);
    std::vector<std::string> configured;
    if (mapped) configured = checkedMapTargets(config, definitions);
    std::vector<StreamRuntime> streams;
    // Two outputs of one name would interleave their SCHEMAs and records: refused here.
    std::vector<maps::OutputName> outputNames;
    for (const auto& definition : definitions) {
        if (!definition.selected) continue;
        auto renderer = std::make_shared<const RecordRenderer>(definition);
        std::shared_ptr<maps::StreamMapper> mapper;
        if (mapped) mapper = maps::mapperFor(config, definition);
        for (auto& name : maps::outputNamesOf(definition.name, mapper.get())) {
            outputNames.push_back(std::move(name));
        }
        std::unique_ptr<StreamOutput> output =
            mapper ? mappedOutput(std::move(mapper)) : renderedOutput(definition, renderer);
        streams.emplace_back(definition, streams.size(), std::move(output), std::move(renderer));
    }
    maps::checkOutputNames(outputNames);
    return streams;
}

}  // namespace tapdiffgen::core

#include "maps/stream_setup.hpp"

#include <map>

#include "util/json_value.hpp"

namespace tapdiffgen::core::maps {

StreamMapSettings settingsOf(const TapConfig& config) { return config.streamMaps; }

bool mapsConfigured(const TapConfig& config) {
    return hasStreamMaps(config.streamMaps) || config.streamMaps.flatteningEnabled;
}

SourceStream sourceStreamOf(const StreamDefinition& definition) {
    SourceStream source;
    source.name = definition.name;
    source.keyProperties = definition.key.names();
    source.schema = parseSchema(definition.schemaJson());
    return source;
}

std::shared_ptr<StreamMapper> mapperFor(const TapConfig& config,
                                        const StreamDefinition& definition) {
    if (!mapsConfigured(config)) return nullptr;
    SourceStream source = sourceStreamOf(definition);
    std::vector<OutputStream> outputs = compileStreamMaps(settingsOf(config), source);
    // A stream the maps leave alone keeps the renderer's direct path.
    if (outputs.size() == 1 && outputs.front().unchanged) return nullptr;
    InputLayout layout;
    const auto selected = definition.selectedColumns();
    layout.columnCount = selected.size();
    for (const auto& keyColumn : source.keyProperties) {
        for (size_t i = 0; i < selected.size(); ++i) {
            if (selected[i]->name == keyColumn) {
                layout.keySlots.push_back({i, selected[i]->kind});
            }
        }
    }
    layout.addDeletedAt = definition.addDeletedAt;
    return std::make_shared<StreamMapper>(std::move(source), std::move(outputs), layout);
}

std::vector<OutputName> outputNamesOf(const std::string& stream, const StreamMapper* mapper) {
    if (mapper == nullptr) return {{stream, "stream " + jsonvalue::pythonRepr(stream, SIZE_MAX)}};
    std::vector<OutputName> names;
    for (const auto& output : mapper->outputs()) names.push_back({output.name, output.origin});
    return names;
}

void checkOutputNames(const std::vector<OutputName>& outputs) {
    std::map<std::string, const OutputName*> byName;
    for (const auto& output : outputs) {
        auto [first, fresh] = byName.emplace(output.name, &output);
        if (fresh) continue;
        throw StreamMapError("stream_maps: " + first->second->origin + " and " + output.origin +
                             " both write stream " + jsonvalue::pythonRepr(output.name, SIZE_MAX));
    }
}

}  // namespace tapdiffgen::core::maps

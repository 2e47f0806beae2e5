#include "replay/sync/stream_runtime.hpp"

namespace tapdiffgen::core {

std::vector<StreamRuntime> streamRuntimesOf(const std::vector<StreamDefinition>& definitions,
                                            const StreamOutputs& outputs) {
    std::vector<StreamRuntime> streams;
    // Two outputs of one name would interleave their SCHEMAs and records: refused here.
    std::vector<maps::OutputName> outputNames;
    for (const auto& definition : definitions) {
        if (!definition.selected) continue;
        StreamRuntime& stream = streams.emplace_back(streams.size(), definition);
        for (auto& name :
             outputs.assign(stream, std::make_shared<const StreamDefinition>(definition))) {
            outputNames.push_back(std::move(name));
        }
    }
    maps::checkOutputNames(outputNames);
    return streams;
}

}  // namespace tapdiffgen::core

#include "replay/stream_runtime.hpp"

namespace tapdiffgen::core {

StreamRuntime::StreamRuntime(const StreamDefinition& stream)
    : definition(&stream), renderer(stream) {
    const ColumnDescription& key = stream.keyDescription();
    keyRule.kind = key.kind;
    // uuid text may be journalled in upper case; the database returns it in lower case.
    keyRule.caseInsensitive = key.jsonSchema.find(R"("format":"uuid")") != std::string::npos;
    keyRule.tombstonesOnly = stream.mode == StreamMode::TombstonesOnly;
}

}  // namespace tapdiffgen::core

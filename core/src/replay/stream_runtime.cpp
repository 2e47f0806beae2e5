#include "replay/stream_runtime.hpp"

namespace tapdiffgen::core {

StreamRuntime::StreamRuntime(const StreamDefinition& stream)
    : definition(&stream), renderer(stream) {
    keyRule.key = &stream.key;
    keyRule.tombstonesOnly = stream.mode == StreamMode::TombstonesOnly;
}

}  // namespace tapdiffgen::core

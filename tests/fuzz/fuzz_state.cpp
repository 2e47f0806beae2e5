// libFuzzer target: a state document either parses into bookmarks that serialise back into a
// state that parses to the same bookmarks, or is refused with StateError.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "state/tap_state.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using tapdiffgen::core::StateError;
    using tapdiffgen::core::TapState;
    std::string text(reinterpret_cast<const char*>(data), size);
    const std::vector<std::string> streams = {"a", "b-c"};
    try {
        TapState state = TapState::parse(text, "fuzz", streams);
        TapState again = TapState::parse(state.toJson(), "round-trip", streams);
        for (const auto& stream : streams) {
            if (state.bookmark(stream) != again.bookmark(stream)) std::abort();
        }
    } catch (const StateError&) {
    }
    return 0;
}

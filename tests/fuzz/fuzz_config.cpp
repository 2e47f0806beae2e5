// libFuzzer target: the config validator never crashes, leaks or hangs, whatever the text; it
// either returns a config or throws ConfigError.
#include <cstddef>
#include <cstdint>
#include <string>

#include "config/tap_config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string text(reinterpret_cast<const char*>(data), size);
    try {
        tapdiffgen::core::parseConfigObject(text);
    } catch (const tapdiffgen::core::ConfigError&) {
    }
    return 0;
}

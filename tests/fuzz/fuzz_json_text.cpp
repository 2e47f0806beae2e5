// libFuzzer target: any bytes rendered as a JSON string are valid JSON, and valid UTF-8 text
// reads back unchanged.
#include <Poco/JSON/Parser.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "singer/json_text.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string bytes(reinterpret_cast<const char*>(data), size);
    std::string json = "[";
    tapdiffgen::core::appendJsonString(json, bytes);
    json += "]";
    try {
        Poco::JSON::Parser parser;
        auto parsed = parser.parse(json).extract<Poco::JSON::Array::Ptr>();
        std::string back = parsed->getElement<std::string>(0);
        if (bytes.find('\xEF') == std::string::npos &&
            back.find("\xEF\xBF\xBD") == std::string::npos && back != bytes) {
            std::abort();
        }
    } catch (const Poco::Exception&) {
        std::abort();  // the renderer wrote invalid JSON
    }
    return 0;
}

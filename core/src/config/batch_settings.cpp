#include "config/batch_settings.hpp"

#include <Poco/JSON/Object.h>

#include <cstring>

#include "config/tap_config.hpp"

namespace tapdiffgen::core {
namespace {

using Poco::JSON::Object;

[[noreturn]] void failBatchConfig(const std::string& problem) {
    throw ConfigError("batch_config: " + problem);
}

Object::Ptr objectAt(const Object& parent, const std::string& key) {
    if (!parent.has(key)) return nullptr;
    const JsonValue value = parent.get(key);
    if (jsonvalue::kindOf(value) != jsonvalue::Kind::Object)
        failBatchConfig(key + " must be an object");
    return value.extract<Object::Ptr>();
}

std::string stringAt(const Object& parent, const std::string& key, const std::string& path,
                     const std::string& fallback) {
    if (!parent.has(key) || parent.get(key).isEmpty()) return fallback;
    const JsonValue value = parent.get(key);
    if (jsonvalue::kindOf(value) != jsonvalue::Kind::String)
        failBatchConfig(path + " must be a string");
    return value.toString();
}

}  // namespace

std::optional<BatchSettings> parseBatchSettings(const JsonValue& value) {
    if (value.isEmpty()) return std::nullopt;
    const Object::Ptr config = value.extract<Object::Ptr>();
    BatchSettings settings;
    const Object::Ptr encoding = objectAt(*config, "encoding");
    if (!encoding)
        failBatchConfig(
            "encoding is required ({\"format\": \"jsonl\", \"compression\": \"gzip\"})");
    const std::string format = stringAt(*encoding, "format", "encoding.format", "");
    if (format != "jsonl")
        failBatchConfig("encoding.format " + jsonvalue::pythonRepr(format) + " is not 'jsonl'");
    const std::string compression =
        stringAt(*encoding, "compression", "encoding.compression", "gzip");
    if (compression != "gzip" && compression != "none") {
        failBatchConfig("encoding.compression " + jsonvalue::pythonRepr(compression) +
                        " is not one of 'gzip', 'none'");
    }
    settings.gzip = compression == "gzip";
    const Object::Ptr storage = objectAt(*config, "storage");
    if (!storage) failBatchConfig("storage is required ({\"root\": \"file:///path/to/folder\"})");
    const std::string root = stringAt(*storage, "root", "storage.root", "");
    if (root.rfind(kFileScheme, 0) != 0 || root.size() <= std::strlen(kFileScheme)) {
        failBatchConfig("storage.root " + jsonvalue::pythonRepr(root) +
                        " is not a file:// URL of a folder");
    }
    settings.root = root.substr(std::strlen(kFileScheme));
    if (settings.root.empty() || settings.root[0] != '/') {
        failBatchConfig("storage.root " + jsonvalue::pythonRepr(root) +
                        " must name an absolute path (file:///…)");
    }
    while (settings.root.size() > 1 && settings.root.back() == '/') settings.root.pop_back();
    settings.prefix = stringAt(*storage, "prefix", "storage.prefix", "");
    if (settings.prefix.find('/') != std::string::npos)
        failBatchConfig("storage.prefix may not contain '/'");
    if (config->has("batch_size") && !config->get("batch_size").isEmpty()) {
        const auto size = jsonvalue::toInt64(config->get("batch_size"));
        if (!size || *size < 1) failBatchConfig("batch_size must be a positive integer");
        settings.batchSize = *size;
    }
    return settings;
}

}  // namespace tapdiffgen::core

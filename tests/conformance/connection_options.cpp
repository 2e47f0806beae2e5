#include "connection_options.hpp"

#include <Poco/JSON/Parser.h>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

namespace tapdiffgen::conformance {

OptionList parseConnectionOptions(const std::string& json, const std::string& dialect) {
    Poco::JSON::Object::Ptr object;
    try {
        object = Poco::JSON::Parser().parse(json).extract<Poco::JSON::Object::Ptr>();
    } catch (const std::exception& failure) {
        throw std::invalid_argument("TDG_CONFORMANCE_OPTIONS is not a JSON object: " +
                                    std::string(failure.what()));
    }
    OptionList options;
    for (const auto& [key, value] : *object) {
        if (value.isEmpty()) continue;
        if (value.isStruct() || value.isArray()) {
            throw std::invalid_argument("TDG_CONFORMANCE_OPTIONS: '" + key +
                                        "' must be a string, number or boolean");
        }
        options.emplace_back(
            key, value.isBoolean() ? (value.extract<bool>() ? "true" : "false") : value.toString());
    }
    return withOptions({{"sql_dialect", dialect}}, options);
}

std::optional<OptionList> connectionOptionsFromEnvironment(const std::string& dialect) {
    const char* json = std::getenv("TDG_CONFORMANCE_OPTIONS");
    if (json == nullptr || json[0] == '\0') return std::nullopt;
    return parseConnectionOptions(json, dialect);
}

OptionList withOptions(OptionList base, const OptionList& changes) {
    for (const auto& [key, value] : changes) {
        auto found = std::find_if(base.begin(), base.end(),
                                  [&key = key](const auto& option) { return option.first == key; });
        if (found != base.end()) {
            found->second = value;
        } else {
            base.emplace_back(key, value);
        }
    }
    return base;
}

}  // namespace tapdiffgen::conformance

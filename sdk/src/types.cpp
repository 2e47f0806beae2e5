#include "tap-diffgen/sdk/types.hpp"

#include <cerrno>
#include <cstdlib>

#include "tap-diffgen/sdk/errors.hpp"

namespace tapdiffgen::sdk {

TableName TableName::fromRef(const TdgTableRef& ref) {
    TableName table;
    if (ref.schema != nullptr && ref.schema[0] != '\0') table.schema = ref.schema;
    table.name = ref.name != nullptr ? ref.name : "";
    return table;
}

std::string TableName::display() const { return schema ? *schema + "." + name : name; }

std::vector<size_t> keyPositions(const std::vector<std::string_view>& columns,
                                 const std::vector<std::string_view>& keyColumns) {
    std::vector<size_t> positions;
    for (std::string_view key : keyColumns) {
        size_t at = 0;
        while (at < columns.size() && columns[at] != key) ++at;
        if (at == columns.size()) {
            throw invalidArgument("key column '" + std::string(key) +
                                  "' is not among the requested columns");
        }
        positions.push_back(at);
    }
    return positions;
}

ConnectOptions::ConnectOptions(const TdgConnectParams& params)
    : logFn_(params.log), logContext_(params.log_context) {
    for (int32_t i = 0; i < params.num_options; ++i) {
        const TdgOption& option = params.options[i];
        if (option.key == nullptr) continue;
        values_[option.key] = option.value != nullptr ? option.value : "";
    }
}

bool ConnectOptions::has(const std::string& key) const {
    auto found = values_.find(key);
    return found != values_.end() && !found->second.empty();
}

std::string ConnectOptions::get(const std::string& key, const std::string& fallback) const {
    auto found = values_.find(key);
    return found != values_.end() && !found->second.empty() ? found->second : fallback;
}

long long ConnectOptions::getInt(const std::string& key, long long fallback) const {
    if (!has(key)) return fallback;
    const std::string& text = values_.at(key);
    char* end = nullptr;
    errno = 0;
    long long value = std::strtoll(text.c_str(), &end, 10);
    if (errno != 0 || end == text.c_str() || *end != '\0') {
        throw invalidArgument("setting '" + key + "' must be an integer");
    }
    return value;
}

long long ConnectOptions::getInt(const std::string& key, long long fallback, long long minimum,
                                 long long maximum) const {
    long long value = getInt(key, fallback);
    if (value < minimum || value > maximum) {
        throw invalidArgument("setting '" + key + "' must be between " + std::to_string(minimum) +
                              " and " + std::to_string(maximum));
    }
    return value;
}

void ConnectOptions::log(int level, const std::string& message) const {
    if (logFn_ != nullptr) logFn_(logContext_, level, message.c_str());
}

}  // namespace tapdiffgen::sdk

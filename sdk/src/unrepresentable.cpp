#include "tap-diffgen/sdk/unrepresentable.hpp"

namespace tapdiffgen::sdk {

void UnrepresentableValues::sentAsNull(const std::string& table, const std::string& column,
                                       const std::string& problem) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!reported_.insert(table + '\0' + column + '\0' + problem).second) return;
    }
    log_.warn("column '" + column + "' of table '" + table + "' " + problem +
              "; sent as null (further such values of this column are not reported)");
}

}  // namespace tapdiffgen::sdk

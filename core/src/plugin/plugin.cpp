#include "plugin/plugin.hpp"

namespace tapdiffgen::core {

std::vector<std::string> Plugin::aliases() const {
    std::vector<std::string> names;
    if (info_.aliases == nullptr) return names;
    for (const char* const* alias = info_.aliases; *alias != nullptr; ++alias) {
        names.emplace_back(*alias);
    }
    return names;
}

}  // namespace tapdiffgen::core

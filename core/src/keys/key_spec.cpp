#include "keys/key_spec.hpp"

#include <algorithm>

namespace tapdiffgen::core {

bool KeySpec::contains(std::string_view name) const {
    return std::any_of(columns.begin(), columns.end(),
                       [&](const KeyColumn& column) { return column.name == name; });
}

std::vector<std::string> KeySpec::names() const {
    std::vector<std::string> out;
    out.reserve(columns.size());
    for (const KeyColumn& column : columns) out.push_back(column.name);
    return out;
}

}  // namespace tapdiffgen::core

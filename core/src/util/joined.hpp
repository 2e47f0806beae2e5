// Lists of names written out in messages, documentation and --about.
#pragma once

#include <string>
#include <vector>

namespace tapdiffgen::core {

/// The values with `separator` between each two: joined({"a", "b"}, ", ") is "a, b".
inline std::string joined(const std::vector<std::string>& values, const std::string& separator) {
    std::string out;
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (i > 0) out += separator;
        out += values[i];
    }
    return out;
}

}  // namespace tapdiffgen::core

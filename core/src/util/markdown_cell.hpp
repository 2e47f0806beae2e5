// Text for one cell of a Markdown table.
#pragma once

#include <string>

namespace tapdiffgen::core {

/// `text` with each '|' escaped, so that it stays in its cell.
inline std::string markdownCell(const std::string& text) {
    std::string out;
    for (const char c : text) {
        if (c == '|') out += '\\';
        out += c;
    }
    return out;
}

}  // namespace tapdiffgen::core

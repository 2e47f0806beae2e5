#include "result_widths.hpp"

namespace tapdiffgen::postgres {

bool ResultWidths::fitsBuffer(const std::string& table, size_t rows) const {
    const auto found = widest_.find(table);
    return found != widest_.end() && found->second * rows <= kBufferedResultBytes;
}

void ResultWidths::noteRow(const std::string& table, size_t bytes) {
    size_t& widest = widest_[table];
    if (bytes > widest) widest = bytes;
}

}  // namespace tapdiffgen::postgres

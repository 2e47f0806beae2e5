#include "decimal_text.hpp"

#include <charconv>
#include <cmath>

namespace tapdiffgen::sqlite {

std::optional<std::string> fixedDecimal(double value, int scale) {
    if (!std::isfinite(value)) return std::nullopt;
    // The largest double has 309 integer digits; sign, point and scale come on top.
    std::string buffer(320 + static_cast<size_t>(scale), '\0');
    auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value,
                                std::chars_format::fixed, scale);
    buffer.resize(static_cast<size_t>(result.ptr - buffer.data()));
    return buffer;
}

std::string integerDecimal(int64_t value, int scale) {
    std::string text = std::to_string(value);
    if (scale > 0) {
        text.push_back('.');
        text.append(static_cast<size_t>(scale), '0');
    }
    return text;
}

}  // namespace tapdiffgen::sqlite

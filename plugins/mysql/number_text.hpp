// Numbers read from text whole: keys given as text, and the text protocol's values.
#pragma once

#include <charconv>
#include <string_view>
#include <system_error>

namespace tapdiffgen::mysql {

/// True when all of `text` (not empty) is one number of Number's type, which goes to `value`.
template <typename Number>
bool parseWhole(std::string_view text, Number& value) {
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    return error == std::errc() && end == text.data() + text.size() && !text.empty();
}

}  // namespace tapdiffgen::mysql

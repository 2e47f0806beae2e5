#include "array_literal.hpp"

namespace tapdiffgen::postgres {

std::string arrayLiteral(const std::vector<std::string_view>& elements) {
    size_t size = 2;
    for (std::string_view element : elements) size += element.size() + 3;
    std::string literal;
    literal.reserve(size);
    literal.push_back('{');
    bool first = true;
    for (std::string_view element : elements) {
        if (element.find('\0') != std::string_view::npos) continue;
        if (!first) literal.push_back(',');
        first = false;
        literal.push_back('"');
        for (char c : element) {
            if (c == '"' || c == '\\') literal.push_back('\\');
            literal.push_back(c);
        }
        literal.push_back('"');
    }
    literal.push_back('}');
    return literal;
}

}  // namespace tapdiffgen::postgres

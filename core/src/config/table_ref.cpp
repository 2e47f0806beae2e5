#include "config/table_ref.hpp"

namespace tapdiffgen::core {

TableRef TableRef::parse(const std::string& qualified) {
    size_t dot = qualified.find('.');
    if (dot == std::string::npos) return {"", qualified};
    return {qualified.substr(0, dot), qualified.substr(dot + 1)};
}

}  // namespace tapdiffgen::core

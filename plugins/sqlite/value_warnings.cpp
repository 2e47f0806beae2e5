#include "value_warnings.hpp"

namespace tapdiffgen::sqlite {

void ValueWarnings::nullified(const std::string& where, const std::string& problem) {
    if (!reported_.insert(where + '\n' + problem).second) return;
    options_.warn("sqlite: " + where + " " + problem +
                  "; sent as null (further such values of this column are not reported)");
}

}  // namespace tapdiffgen::sqlite

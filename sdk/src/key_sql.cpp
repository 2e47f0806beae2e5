#include "tap-diffgen/sdk/key_sql.hpp"

namespace tapdiffgen::sdk {

KeysetCondition keysetAfter(const std::vector<std::string>& quotedKeyColumns,
                            const std::function<std::string(size_t)>& placeholder) {
    KeysetCondition condition;
    for (size_t last = 0; last < quotedKeyColumns.size(); ++last) {
        std::string term;
        for (size_t c = 0; c <= last; ++c) {
            if (c > 0) term += " AND ";
            term += quotedKeyColumns[c] + (c == last ? " > " : " = ") +
                    placeholder(condition.keyColumnOfPlaceholder.size());
            condition.keyColumnOfPlaceholder.push_back(c);
        }
        condition.sql += (last == 0 ? "(" : " OR (") + term + ")";
    }
    return condition;
}

}  // namespace tapdiffgen::sdk

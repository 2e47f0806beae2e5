#include "replay/page_sizer.hpp"

#include <algorithm>

namespace tapdiffgen::core {

PageSizer::PageSizer(int64_t least, int64_t most) : least_(least), most_(most), limit_(least) {}

bool PageSizer::afterFullPage(size_t tables) {
    const int64_t next = limitFor(tables, least_, most_);
    const bool changed = next != limit_;
    limit_ = next;
    return changed;
}

int64_t PageSizer::limitFor(size_t tables, int64_t least, int64_t most) {
    most = std::max(least, most);
    if (tables <= static_cast<size_t>(kTablesPerPage)) return least;
    // In floating point, so that no product overflows: only the comparison needs it exact.
    // Over kTablesPerPage tables the quotient exceeds least, so its whole part is at least least.
    const double wanted = static_cast<double>(least) * static_cast<double>(tables) / kTablesPerPage;
    if (wanted >= static_cast<double>(most)) return most;
    return static_cast<int64_t>(wanted);
}

}  // namespace tapdiffgen::core

#include "replay/page_sizer.hpp"

#include <algorithm>
#include <string_view>
#include <unordered_set>

namespace tapdiffgen::core {

PageSizer::PageSizer(int64_t least, int64_t most)
    : least_(least), most_(std::max(least, most)), limit_(least) {}

bool PageSizer::afterFullPage(const EventPage& page) {
    const int64_t next = limitFor(tablesIn(page), least_, most_);
    const bool changed = next != limit_;
    limit_ = next;
    return changed;
}

int64_t PageSizer::limitFor(size_t tables, int64_t least, int64_t most) {
    most = std::max(least, most);
    if (tables <= static_cast<size_t>(kTablesPerPage)) return least;
    // In floating point, so that no product overflows: only the comparison needs it exact.
    const double wanted = static_cast<double>(least) * static_cast<double>(tables) / kTablesPerPage;
    if (wanted >= static_cast<double>(most)) return most;
    return std::max(least, static_cast<int64_t>(wanted));
}

size_t PageSizer::tablesIn(const EventPage& page) {
    std::unordered_set<std::string_view> names;
    for (const TdgEvent& event : page) {
        if (event.table_name != nullptr) names.insert(event.table_name);
    }
    return names.size();
}

}  // namespace tapdiffgen::core

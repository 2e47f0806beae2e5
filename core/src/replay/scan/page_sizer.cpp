#include "replay/scan/page_sizer.hpp"

#include <algorithm>

namespace tapdiffgen::core {

PageSizer::PageSizer(int64_t first, BacklogPages backlog) : first_(first), backlog_(backlog) {
    backlog_.events = std::max(first_, backlog_.events);
    backlog_.widest = std::max(backlog_.events, backlog_.widest);
}

int64_t PageSizer::limit(size_t tables) const {
    if (!inBacklog_) return first_;
    const auto perTable = static_cast<uint64_t>(kBacklogEventsPerTable);
    const uint64_t wanted = tables > UINT64_MAX / perTable ? UINT64_MAX : tables * perTable;
    if (wanted <= static_cast<uint64_t>(backlog_.events)) return backlog_.events;
    return static_cast<int64_t>(std::min<uint64_t>(wanted, static_cast<uint64_t>(backlog_.widest)));
}

}  // namespace tapdiffgen::core

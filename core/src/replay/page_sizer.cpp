#include "replay/page_sizer.hpp"

#include <algorithm>

namespace tapdiffgen::core {

PageSizer::PageSizer(int64_t first, int64_t backlog)
    : backlog_(std::max(first, backlog)), limit_(first) {}

bool PageSizer::afterFullPage() {
    const bool changed = limit_ != backlog_;
    limit_ = backlog_;
    return changed;
}

}  // namespace tapdiffgen::core

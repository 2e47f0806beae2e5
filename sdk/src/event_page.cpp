#include "tap-diffgen/sdk/event_page.hpp"

#include <algorithm>
#include <cstring>

namespace tapdiffgen::sdk {

void EventPage::add(int64_t id, char op, std::string_view tableName,
                    const std::string_view* tableId, std::string_view tsCreated) {
    TdgEvent event{};
    event.id = id;
    event.op = op;
    event.table_id_is_null = tableId == nullptr ? 1 : 0;
    event.table_id_size = tableId == nullptr ? 0 : tableId->size();
    events_.push_back(event);
    highestId_ = std::max(highestId_, id);
    offsets_.push_back({appendText(tableName), tableId == nullptr ? kNone : appendText(*tableId),
                        tsCreated.empty() ? kNone : appendText(tsCreated)});
}

void EventPage::reserve(size_t events) {
    // Table name, key and timestamp with their terminators take about this much text.
    constexpr size_t kTextPerEvent = 64;
    events_.reserve(events);
    offsets_.reserve(events);
    text_.reserve(events * kTextPerEvent);
}

bool EventPage::fillsRangeAfter(int64_t afterId) const {
    if (events_.empty() || highestId_ <= afterId) return false;
    // Ids are unique and above afterId, so as many events as ids in the range means all of them.
    return static_cast<uint64_t>(highestId_) - static_cast<uint64_t>(afterId) == events_.size();
}

void EventPage::clear() {
    text_.clear();
    offsets_.clear();
    events_.clear();
    highestId_ = INT64_MIN;
    rangeRowCount_ = -1;
    mark_ = TdgHorizonMark{};
}

size_t EventPage::appendText(std::string_view text) {
    size_t at = text_.size();
    text_.append(text);
    text_.push_back('\0');
    return at;
}

void EventPage::resolveText() {
    const char* base = text_.data();
    auto at = [base](size_t offset) { return offset == kNone ? nullptr : base + offset; };
    for (size_t i = 0; i < events_.size(); ++i) {
        events_[i].table_name = at(offsets_[i].tableName);
        events_[i].table_id = at(offsets_[i].tableId);
        events_[i].ts_created = at(offsets_[i].tsCreated);
    }
    auto byId = [](const TdgEvent& a, const TdgEvent& b) { return a.id < b.id; };
    if (!std::is_sorted(events_.begin(), events_.end(), byId)) {
        std::stable_sort(events_.begin(), events_.end(), byId);
    }
}

namespace {
void releasePage(TdgEventPage* page) {
    if (page == nullptr) return;
    delete static_cast<EventPage*>(page->private_data);
    std::memset(page, 0, sizeof(*page));
}
}  // namespace

void EventPage::publish(std::unique_ptr<EventPage> page, TdgEventPage* out) {
    page->resolveText();
    std::memset(out, 0, sizeof(*out));
    out->num_events = static_cast<int64_t>(page->events_.size());
    out->events = page->events_.data();
    out->range_row_count = page->rangeRowCount_;
    out->mark = page->mark_;
    out->release = &releasePage;
    out->private_data = page.release();
}

}  // namespace tapdiffgen::sdk

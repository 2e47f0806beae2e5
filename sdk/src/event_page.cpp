#include "tap-diffgen/sdk/event_page.hpp"

#include <cstring>

namespace tapdiffgen::sdk {

void EventPage::add(int64_t id, char op, std::string_view tableName,
                    const std::string_view* tableId, std::string_view tsCreated) {
    Owned& owned = strings_.emplace_back();
    owned.tableName.assign(tableName);
    if (tableId != nullptr) owned.tableId.assign(*tableId);
    owned.tsCreated.assign(tsCreated);

    TdgEvent event{};
    event.id = id;
    event.op = op;
    event.table_id_is_null = tableId == nullptr ? 1 : 0;
    event.table_name = owned.tableName.c_str();
    event.table_id = tableId == nullptr ? nullptr : owned.tableId.c_str();
    event.table_id_size = owned.tableId.size();
    event.ts_created = owned.tsCreated.empty() ? nullptr : owned.tsCreated.c_str();
    events_.push_back(event);
}

namespace {
void releasePage(TdgEventPage* page) {
    if (page == nullptr) return;
    delete static_cast<EventPage*>(page->private_data);
    std::memset(page, 0, sizeof(*page));
}
}  // namespace

void EventPage::publish(std::unique_ptr<EventPage> page, TdgEventPage* out) {
    std::memset(out, 0, sizeof(*out));
    out->num_events = static_cast<int64_t>(page->events_.size());
    out->events = page->events_.data();
    out->range_row_count = page->rangeRowCount_;
    out->mark = page->mark_;
    out->release = &releasePage;
    out->private_data = page.release();
}

}  // namespace tapdiffgen::sdk

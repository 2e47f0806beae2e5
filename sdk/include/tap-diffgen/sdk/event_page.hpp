// Builds the TdgEventPage a driver returns from read_diffgen_page; owns every string in it.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tap-diffgen/dialect_abi.h"

namespace tapdiffgen::sdk {

class EventPage {
public:
    /// Appends one event. Strings are copied. tableId nullopt means diffgen.table_id IS NULL;
    /// tsCreated must already be in the ABI's TIMESTAMPTZ form (or empty when NULL).
    void add(int64_t id, char op, std::string_view tableName, const std::string_view* tableId,
             std::string_view tsCreated);

    void setRangeRowCount(int64_t count) { rangeRowCount_ = count; }
    void setMark(const TdgHorizonMark& mark) { mark_ = mark; }
    size_t size() const { return events_.size(); }

    /// Moves the page into `out`; out->release frees it.
    static void publish(std::unique_ptr<EventPage> page, TdgEventPage* out);

private:
    struct Owned {
        std::string tableName;
        std::string tableId;
        std::string tsCreated;
    };
    std::deque<Owned> strings_;  // deque: element addresses stay valid while growing
    std::vector<TdgEvent> events_;
    int64_t rangeRowCount_ = -1;
    TdgHorizonMark mark_{};
};

}  // namespace tapdiffgen::sdk

// Builds the TdgEventPage a driver returns from read_diffgen_page; owns every string in it.
#pragma once

#include <cstdint>
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

    /// Room for `events` events without growing: a page of the request's limit is then never
    /// copied to grow, nor held twice while it grows. Memory only touched when events arrive.
    void reserve(size_t events);

    void setRangeRowCount(int64_t count) { rangeRowCount_ = count; }
    void setMark(const TdgHorizonMark& mark) { mark_ = mark; }
    size_t size() const { return events_.size(); }
    int64_t rangeRowCount() const { return rangeRowCount_; }

    /// Whether the events are every id of (afterId, highest id]: then no other row, of any
    /// table, can be in that range, and its row count is size().
    bool fillsRangeAfter(int64_t afterId) const;

    /// Forgets every event, the count and the mark.
    void clear();

    /// Moves the page into `out`; out->release frees it. Events added out of id order are
    /// sorted, so a statement whose row order the server does not promise is still safe.
    static void publish(std::unique_ptr<EventPage> page, TdgEventPage* out);

private:
    // Where an event's strings start in text_; kNone for NULL.
    struct TextOffsets {
        size_t tableName;
        size_t tableId;
        size_t tsCreated;
    };
    static constexpr size_t kNone = static_cast<size_t>(-1);

    size_t appendText(std::string_view text);
    void resolveText();

    // Every string of the page, NUL-terminated, in one buffer: one allocation per growth
    // rather than several per event. Pointers into it are set once, when it stops growing.
    std::string text_;
    std::vector<TextOffsets> offsets_;
    std::vector<TdgEvent> events_;
    int64_t highestId_ = INT64_MIN;
    int64_t rangeRowCount_ = -1;
    TdgHorizonMark mark_{};
};

}  // namespace tapdiffgen::sdk

// A page's plan, and the key index it is built on: the latest event per row, in log order.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "replay/scan/key_index.hpp"
#include "replay/scan/page_plan.hpp"

using tapdiffgen::core::BadEventError;
using tapdiffgen::core::DrivingEvent;
using tapdiffgen::core::EventPage;
using tapdiffgen::core::KeyColumn;
using tapdiffgen::core::KeyIndex;
using tapdiffgen::core::KeySpec;
using tapdiffgen::core::LateRead;
using tapdiffgen::core::PagePlan;
using tapdiffgen::core::PageStreams;
using tapdiffgen::core::StreamPlan;
using tapdiffgen::core::StreamSet;

namespace {

struct Event {
    int64_t id;
    std::string table;
    std::string key;
    char op;
};

// A page over events owned by the test (no release: nothing to free).
class TestPage {
public:
    explicit TestPage(std::vector<Event> events) : events_(std::move(events)) {
        stamps_.reserve(events_.size());  // the events point into these
        for (const Event& event : events_) {
            TdgEvent raw{};
            raw.id = event.id;
            raw.op = event.op;
            raw.table_name = event.table.c_str();
            raw.table_id = event.key.c_str();
            raw.table_id_size = event.key.size();
            raw.ts_created = stamps_.emplace_back("ts" + std::to_string(event.id)).c_str();
            raw_.push_back(raw);
        }
        TdgEventPage page{};
        page.num_events = static_cast<int64_t>(raw_.size());
        page.events = raw_.data();
        page.range_row_count = -1;
        page_ = EventPage(page);
    }
    const EventPage& page() const { return page_; }

private:
    std::vector<Event> events_;
    std::vector<std::string> stamps_;
    std::vector<TdgEvent> raw_;
    EventPage page_;
};

std::shared_ptr<const KeySpec> integerKey() {
    return std::make_shared<const KeySpec>(
        KeySpec{{KeyColumn{"id", TDG_KIND_INT64, false, "", -1}}});
}

PageStreams twoStreams() {
    PageStreams streams;
    streams.add("a", {integerKey(), false, "a"});
    streams.add("b", {integerKey(), false, "b"});
    return streams;
}

std::vector<int64_t> idsOf(const std::vector<DrivingEvent>& events) {
    std::vector<int64_t> ids;
    for (const DrivingEvent& event : events) ids.push_back(event.id);
    return ids;
}

PagePlan::Options readingAll(size_t streams) {
    PagePlan::Options options;
    options.readFor = StreamSet(streams);
    for (size_t stream = 0; stream < streams; ++stream) options.readFor.add(stream);
    return options;
}

}  // namespace

TEST_CASE("the key index finds, replaces and grows") {
    std::vector<std::string> keys;
    auto keyAt = [&keys](size_t i) { return std::string_view(keys[i]); };
    KeyIndex index;
    CHECK(index.find("1", keyAt) == KeyIndex::npos);
    for (int i = 0; i < 5000; ++i) {
        keys.push_back(std::to_string(i));
        CHECK(index.assign(keys.back(), keys.size() - 1, keyAt) == KeyIndex::npos);
    }
    CHECK(index.size() == 5000);
    for (int i = 0; i < 5000; i += 7) CHECK(index.find(std::to_string(i), keyAt) == size_t(i));
    CHECK(index.find("5000", keyAt) == KeyIndex::npos);
    CHECK(index.find("", keyAt) == KeyIndex::npos);
    keys.push_back("42");
    CHECK(index.assign("42", keys.size() - 1, keyAt) == 42);
    CHECK(index.find("42", keyAt) == keys.size() - 1);
    CHECK(index.size() == 5000);
}

TEST_CASE("a page plan keeps each row's latest event, in log order, by stream") {
    TestPage page({{1, "a", "1", 'i'},
                   {2, "b", "1", 'i'},
                   {3, "a", "2", 'i'},
                   {4, "a", "1", 'u'},
                   {5, "a", "3", 'i'},
                   {6, "a", "2", 'd'},
                   {7, "other", "9", 'i'},
                   {8, "a", "03", 'u'},
                   {9, "b", "1", 'd'},
                   {10, "a", "4", 'd'},
                   {11, "a", "4", 'i'}});
    const PageStreams streams = twoStreams();
    const PagePlan plan(page.page(), streams, readingAll(2));
    const StreamPlan& a = plan.streams()[0];
    // "03" is row 3's key too, so id 8 replaces id 5; a delete then an insert is the insert.
    // A delete stays a claim to verify: the row is read again like any other.
    CHECK(idsOf(a.events) == std::vector<int64_t>{4, 6, 8, 11});
    CHECK(a.events[1].op == 'd');
    CHECK(a.events[2].key.canonical() == "3");
    CHECK(a.events[2].op == 'u');
    CHECK(a.events[2].tsCreated == "ts8");
    CHECK(a.findEvent("1") == 0);
    CHECK(a.findEvent("2") == 1);
    CHECK(a.findEvent("3") == 2);
    CHECK(a.findEvent("4") == 3);
    CHECK(a.findEvent("5") == KeyIndex::npos);
    const StreamPlan& b = plan.streams()[1];
    CHECK(idsOf(b.events) == std::vector<int64_t>{9});
    CHECK(plan.eventsConsidered() == 10);
}

TEST_CASE("a page plan over thousands of rows matches the latest event of every one") {
    std::vector<Event> events;
    for (int64_t id = 1; id <= 30000; ++id) {
        events.push_back({id, id % 3 == 0 ? "b" : "a", std::to_string((id * 7919) % 4001),
                          id % 5 == 0 ? 'd' : 'u'});
    }
    TestPage page(events);
    const PageStreams streams = twoStreams();
    const PagePlan plan(page.page(), streams, readingAll(2));
    for (size_t stream = 0; stream < 2; ++stream) {
        // The expected plan, the long way: the last event of each key.
        std::vector<const Event*> last(4001, nullptr);
        for (const Event& event : events) {
            if ((event.table == "b") == (stream == 1)) last[std::stoul(event.key)] = &event;
        }
        std::vector<int64_t> ids;
        for (const Event* event : last) {
            if (event != nullptr) ids.push_back(event->id);
        }
        std::sort(ids.begin(), ids.end());
        const StreamPlan& planned = plan.streams()[stream];
        CHECK(idsOf(planned.events) == ids);
        for (size_t i = 0; i < planned.events.size(); ++i) {
            REQUIRE(planned.findEvent(planned.events[i].key.canonical()) == i);
            REQUIRE(planned.events[i].op == events[planned.events[i].id - 1].op);
        }
    }
}

TEST_CASE("a page plan leaves out seen ids of a late read") {
    TestPage page({{1, "a", "1", 'i'}, {2, "a", "2", 'd'}, {3, "a", "1", 'd'}, {4, "b", "5", 'u'}});
    const PageStreams streams = twoStreams();
    const std::vector<int64_t> seen{3};
    PagePlan::Options options;
    options.readFor = StreamSet(2, {0});
    options.late = LateRead{seen};
    const PagePlan plan(page.page(), streams, options);
    CHECK(idsOf(plan.streams()[0].events) == std::vector<int64_t>{1, 2});
    CHECK(plan.streams()[1].events.empty());
    CHECK(plan.eventsConsidered() == 2);
}

TEST_CASE("a bad event is thrown, or skipped without replacing the row's earlier event") {
    TestPage page({{1, "a", "1", 'i'}, {2, "a", "1", 'x'}, {3, "a", "one", 'u'}});
    const PageStreams streams = twoStreams();
    CHECK_THROWS_AS(PagePlan(page.page(), streams, readingAll(2)), BadEventError);
    PagePlan::Options skipping = readingAll(2);
    skipping.skipBadEvents = true;
    const PagePlan plan(page.page(), streams, skipping);
    CHECK(idsOf(plan.streams()[0].events) == std::vector<int64_t>{1});
    CHECK(plan.eventsSkipped() == 2);
}

TEST_CASE("a key its column cannot hold stops that stream alone, before the event") {
    TestPage page({{1, "a", "1", 'i'},
                   {2, "b", "5", 'u'},
                   {3, "a", "1.5", 'u'},
                   {4, "a", "2", 'd'},
                   {5, "b", "6", 'i'}});
    PageStreams streams;
    streams.add("a", {integerKey(), false, "alpha"});
    streams.add("b", {integerKey(), false, "beta"});
    const PagePlan plan(page.page(), streams, readingAll(2));
    CHECK(idsOf(plan.streams()[0].events) == std::vector<int64_t>{1});
    CHECK(idsOf(plan.streams()[1].events) == std::vector<int64_t>{2, 5});
    REQUIRE(plan.stops()[0].has_value());
    CHECK_FALSE(plan.stops()[1].has_value());
    CHECK(plan.stops()[0]->eventId == 3);
    CHECK(plan.stops()[0]->message ==
          "stream 'alpha': diffgen id 3 journals key '1.5' for column 'id' (its type), which is "
          "not a value of that type");
}

TEST_CASE("a binary key journalled raw names the upgrade of its trigger") {
    TestPage page({{1, "a", "A", 'i'}});
    PageStreams streams;
    streams.add("a", {std::make_shared<const KeySpec>(
                          KeySpec{{KeyColumn{"k", TDG_KIND_BYTES, false, "varbinary(8)", -1}}}),
                      false, "alpha"});
    const PagePlan plan(page.page(), streams, readingAll(1));
    REQUIRE(plan.stops()[0].has_value());
    CHECK(plan.stops()[0]->message ==
          "stream 'alpha': diffgen id 1 journals key 'A' for column 'k' (varbinary(8)), which is "
          "not a value of that type; a trigger of an older version journals binary keys raw: run "
          "the shipped diffgen SQL file again, or attach the table again (diffgen_attach('a'))");
}

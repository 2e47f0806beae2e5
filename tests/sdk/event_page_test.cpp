// The SDK's EventPage as read_diffgen_page hands it over: strings owned by the page and valid
// until release, NULLs kept apart from empty strings, events in ascending id order.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <string_view>

#include "tap-diffgen/sdk/event_page.hpp"

using tapdiffgen::sdk::EventPage;

namespace {

TdgEventPage publish(std::unique_ptr<EventPage> page) {
    TdgEventPage out{};
    EventPage::publish(std::move(page), &out);
    return out;
}

}  // namespace

TEST_CASE("event page: strings survive the page's growth, NULL differs from empty") {
    auto page = std::make_unique<EventPage>();
    SUBCASE("no room made beforehand") {}
    SUBCASE("room made for fewer events than come") { page->reserve(1000); }
    SUBCASE("room made for more events than come") { page->reserve(8000); }
    const std::string_view emptyKey;
    for (int64_t id = 1; id <= 5000; ++id) {
        std::string key = std::to_string(id * 7);
        std::string_view keyView = key;
        page->add(id, id % 3 == 0 ? 'd' : 'u', "orders_" + std::to_string(id % 4),
                  id % 10 == 0 ? nullptr : (id % 11 == 0 ? &emptyKey : &keyView),
                  id % 2 == 0 ? "" : "2024-02-29T13:14:15.123456+00:00");
    }
    page->setRangeRowCount(5000);
    TdgEventPage out = publish(std::move(page));

    REQUIRE(out.num_events == 5000);
    CHECK(out.range_row_count == 5000);
    for (int64_t i = 0; i < out.num_events; ++i) {
        const TdgEvent& event = out.events[i];
        const int64_t id = i + 1;
        CHECK(event.id == id);
        CHECK(std::string(event.table_name) == "orders_" + std::to_string(id % 4));
        if (id % 10 == 0) {
            CHECK(event.table_id_is_null == 1);
            CHECK(event.table_id == nullptr);
        } else if (id % 11 == 0) {
            CHECK(event.table_id_is_null == 0);
            CHECK(std::string(event.table_id, event.table_id_size).empty());
        } else {
            CHECK(std::string(event.table_id, event.table_id_size) == std::to_string(id * 7));
        }
        if (id % 2 == 0) {
            CHECK(event.ts_created == nullptr);
        } else {
            CHECK(std::string(event.ts_created) == "2024-02-29T13:14:15.123456+00:00");
        }
    }
    out.release(&out);
    CHECK(out.events == nullptr);
}

TEST_CASE("event page: events added out of order are published in ascending id order") {
    auto page = std::make_unique<EventPage>();
    const std::string_view keys[] = {"30", "10", "20"};
    page->add(30, 'i', "c", &keys[0], "");
    page->add(10, 'u', "a", &keys[1], "");
    page->add(20, 'd', "b", &keys[2], "");
    TdgEventPage out = publish(std::move(page));

    REQUIRE(out.num_events == 3);
    CHECK(out.events[0].id == 10);
    CHECK(std::string(out.events[0].table_name) == "a");
    CHECK(std::string(out.events[0].table_id, out.events[0].table_id_size) == "10");
    CHECK(out.events[1].op == 'd');
    CHECK(std::string(out.events[2].table_name) == "c");
    out.release(&out);
}

// The next page's size: page_size until a page comes back full, then max_page_size, grown for
// pages that read many tables when max_page_size was left to the tap.
#include <doctest/doctest.h>

#include <cstdint>

#include "replay/scan/page_sizer.hpp"

using tapdiffgen::core::BacklogPages;
using tapdiffgen::core::PageSizer;

TEST_CASE("a run starts at page_size and reads a backlog in pages of max_page_size") {
    PageSizer sizer(10000, BacklogPages{30000, 30000});
    CHECK(sizer.limit(4) == 10000);
    sizer.noteFullPage();
    CHECK(sizer.limit(4) == 30000);
    CHECK(sizer.limit(500) == 30000);
    sizer.noteFullPage();
    CHECK(sizer.limit(4) == 30000);
}

TEST_CASE("max_page_size equal to page_size keeps every page at page_size") {
    PageSizer sizer(10000, BacklogPages{10000, 10000});
    sizer.noteFullPage();
    CHECK(sizer.limit(1) == 10000);
    CHECK(sizer.limit(64) == 10000);
}

TEST_CASE("a page never grows below page_size") {
    PageSizer sizer(10000, BacklogPages{5000, 5000});
    CHECK(sizer.limit(4) == 10000);
    sizer.noteFullPage();
    CHECK(sizer.limit(4) == 10000);
    CHECK(sizer.limit(64) == 10000);
}

TEST_CASE("a backlog page over many tables holds 625 events of each, up to the widest") {
    PageSizer sizer(10000, BacklogPages{30000, 40000});
    CHECK(sizer.limit(64) == 10000);  // not before a page came back full
    sizer.noteFullPage();
    CHECK(sizer.limit(0) == 30000);
    CHECK(sizer.limit(16) == 30000);
    CHECK(sizer.limit(48) == 30000);
    CHECK(sizer.limit(49) == 49 * PageSizer::kBacklogEventsPerTable);
    CHECK(sizer.limit(60) == 37500);
    CHECK(sizer.limit(64) == 40000);
    CHECK(sizer.limit(500) == 40000);
    CHECK(sizer.limit(SIZE_MAX) == 40000);
}

TEST_CASE("the widest page is never below the backlog's") {
    PageSizer sizer(10000, BacklogPages{30000, 20000});
    sizer.noteFullPage();
    CHECK(sizer.limit(64) == 30000);
    CHECK(sizer.limit(500) == 30000);
}

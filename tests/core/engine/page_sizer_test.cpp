// The next page's size from the tables the last full page touched.
#include <doctest/doctest.h>

#include <cstdint>

#include "replay/page_sizer.hpp"

using tapdiffgen::core::PageSizer;

TEST_CASE("a page grows with the tables beyond four, between page_size and max_page_size") {
    CHECK(PageSizer::limitFor(0, 10000, 30000) == 10000);
    CHECK(PageSizer::limitFor(1, 10000, 30000) == 10000);
    CHECK(PageSizer::limitFor(4, 10000, 30000) == 10000);
    CHECK(PageSizer::limitFor(5, 10000, 30000) == 12500);
    CHECK(PageSizer::limitFor(10, 10000, 30000) == 25000);
    CHECK(PageSizer::limitFor(16, 10000, 30000) == 30000);
    CHECK(PageSizer::limitFor(64, 10000, 30000) == 30000);
    CHECK(PageSizer::limitFor(64, 10000, 10000) == 10000);
    CHECK(PageSizer::limitFor(64, 10000, 5000) == 10000);  // never under page_size
    CHECK(PageSizer::limitFor(1000000, INT64_MAX / 2, INT64_MAX) == INT64_MAX);
    CHECK(PageSizer::limitFor(6, 1, 100) == 1);  // a page of one event has no share to grow
}

TEST_CASE("the sizer starts at page_size") {
    PageSizer sizer(8, 24);
    CHECK(sizer.limit() == 8);
}

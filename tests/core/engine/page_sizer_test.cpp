// The next page's size: page_size until a page comes back full, then max_page_size.
#include <doctest/doctest.h>

#include "replay/page_sizer.hpp"

using tapdiffgen::core::PageSizer;

TEST_CASE("a run starts at page_size and reads a backlog in pages of max_page_size") {
    PageSizer sizer(10000, 30000);
    CHECK(sizer.limit() == 10000);
    CHECK(sizer.afterFullPage());
    CHECK(sizer.limit() == 30000);
    CHECK_FALSE(sizer.afterFullPage());  // said once, when it changes
    CHECK(sizer.limit() == 30000);
}

TEST_CASE("max_page_size equal to page_size keeps every page at page_size") {
    PageSizer sizer(10000, 10000);
    CHECK_FALSE(sizer.afterFullPage());
    CHECK(sizer.limit() == 10000);
}

TEST_CASE("a page never grows below page_size") {
    PageSizer sizer(10000, 5000);
    CHECK(sizer.limit() == 10000);
    CHECK_FALSE(sizer.afterFullPage());
    CHECK(sizer.limit() == 10000);
}

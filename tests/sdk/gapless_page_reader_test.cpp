// GaplessPageReader: the plain read serves pages that fill their id range, the full read
// every other page, and the choice follows what the previous page needed.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tap-diffgen/sdk/gapless_page_reader.hpp"

using tapdiffgen::sdk::EventPage;
using tapdiffgen::sdk::GaplessPageReader;
using tapdiffgen::sdk::PageRequest;

namespace {

// A log of ids, all of one table; the full read also counts the range as a server would.
struct FakeLog {
    std::vector<int64_t> ids;
    std::vector<std::string> calls;

    void fill(const PageRequest& request, EventPage& page) const {
        const std::string_view key = "1";
        int64_t last = request.afterId;
        for (int64_t id : ids) {
            if (id <= request.afterId || static_cast<int64_t>(page.size()) >= request.limit) {
                continue;
            }
            page.add(id, 'u', "t", &key, "");
            last = id;
        }
        page.setMark(TdgHorizonMark{{1, last, 0, 0}});
    }

    GaplessPageReader reader() {
        return GaplessPageReader(
            [this](const PageRequest& request, EventPage& page) {
                calls.push_back("plain");
                fill(request, page);
            },
            [this](const PageRequest& request, EventPage& page) {
                calls.push_back("full");
                fill(request, page);
                page.setRangeRowCount(static_cast<int64_t>(page.size()));
            });
    }
};

PageRequest request(int64_t after, int64_t limit) {
    PageRequest page;
    page.afterId = after;
    page.limit = limit;
    return page;
}

}  // namespace

TEST_CASE("gapless reader: a page that fills its range is read once, plainly, and counted") {
    FakeLog log{{1, 2, 3, 4, 5, 6}, {}};
    GaplessPageReader reader = log.reader();
    EventPage page;
    reader.read(request(0, 3), page);
    CHECK(page.size() == 3);
    CHECK(page.rangeRowCount() == 3);
    CHECK(log.calls == std::vector<std::string>{"plain"});
}

TEST_CASE("gapless reader: a gap sends the page, and the next one, to the full read") {
    FakeLog log{{1, 2, 4, 5, 6, 7, 8, 9}, {}};
    GaplessPageReader reader = log.reader();
    EventPage first;
    reader.read(request(0, 3), first);  // 1, 2, 4: id 3 is missing
    CHECK(first.size() == 3);
    CHECK(first.rangeRowCount() == 3);  // the full read's count, not the plain read's page
    EventPage second;
    reader.read(request(4, 3), second);  // 5, 6, 7: no gap, but read in full after a gap
    CHECK(second.size() == 3);
    EventPage third;
    reader.read(request(7, 3), third);  // back to the plain read
    CHECK(third.size() == 2);
    CHECK(third.rangeRowCount() == 2);
    CHECK(log.calls == std::vector<std::string>{"plain", "full", "full", "plain"});
}

TEST_CASE("gapless reader: an empty page takes the full read for its mark") {
    FakeLog log{{1, 2}, {}};
    GaplessPageReader reader = log.reader();
    EventPage page;
    reader.read(request(2, 10), page);
    CHECK(page.size() == 0);
    CHECK(page.rangeRowCount() == 0);
    CHECK(log.calls == std::vector<std::string>{"plain", "full"});
    EventPage next;
    reader.read(request(0, 10), next);  // an empty page is no reason to avoid the plain read
    CHECK(log.calls.back() == "plain");
}

TEST_CASE("event page: fillsRangeAfter and clear") {
    EventPage page;
    const std::string_view key = "k";
    CHECK_FALSE(page.fillsRangeAfter(0));
    page.add(12, 'i', "t", &key, "");
    page.add(11, 'i', "t", &key, "");
    CHECK(page.fillsRangeAfter(10));
    CHECK_FALSE(page.fillsRangeAfter(9));
    CHECK_FALSE(page.fillsRangeAfter(12));
    page.setRangeRowCount(2);
    page.clear();
    CHECK(page.size() == 0);
    CHECK(page.rangeRowCount() == -1);
    CHECK_FALSE(page.fillsRangeAfter(10));
}

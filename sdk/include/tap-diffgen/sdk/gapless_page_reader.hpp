// Reads diffgen pages with the cheapest statement that still proves what the engine needs.
#pragma once

#include <functional>

#include "tap-diffgen/sdk/event_page.hpp"
#include "tap-diffgen/sdk/types.hpp"

namespace tapdiffgen::sdk {

/// Most pages fill their id range with their own events (no gap, no event of a table not
/// asked for), and then the range row count is simply the page's size: counting the range on
/// the server is wasted work. A driver gives two reads of the same page:
///   plain: the events and the horizon mark in one statement (one snapshot), no count;
///   full:  the events, the range row count and the mark in one statement, empty pages too.
/// read() runs the plain one and keeps its result when the page fills its range; otherwise
/// (a gap, another table's rows, an empty page) it runs the full one in its place. After a
/// page that needed the full read the next goes straight to it, as gaps and other tables
/// tend to persist; a page that fills its range returns the reader to the plain read.
/// Since: SDK 0.1.0.
class GaplessPageReader {
public:
    using Read = std::function<void(const PageRequest&, EventPage&)>;

    GaplessPageReader(Read plain, Read full) : plain_(std::move(plain)), full_(std::move(full)) {}

    void read(const PageRequest& request, EventPage& page);

private:
    Read plain_;
    Read full_;
    bool preferPlain_ = true;
};

}  // namespace tapdiffgen::sdk

// How many events the next diffgen page asks for. A run starts with pages of page_size; once a
// page comes back full there is a backlog, and the rest of the run reads pages of
// max_page_size. Every page costs the server and the tap a fixed amount besides its events: the
// page read, one re-pull statement per table and chunk of keys, and the bookmark after it. A
// larger page shares that out over more events. Memory grows with the page (one page of events,
// the next one read ahead, and a share of its records), which is what max_page_size bounds.
//
// A backlog page that reads many tables splits into as many re-pull statements, each of a
// small share of its keys: 30,000 events over 64 tables made statements of about 470 keys, and
// MariaDB's server then spent 1.2 times as long per event as over 4 tables. With max_page_size
// left to the tap, such a page grows to hold kBacklogEventsPerTable events of each table, up to
// a ceiling (four times page_size) that keeps the memory bound.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tapdiffgen::core {

/// How large the pages of a backlog are.
struct BacklogPages {
    /// Events per page however few tables it reads (max_page_size).
    int64_t events = 30000;
    /// The most a page reading many tables grows to; `events` when max_page_size was given.
    int64_t widest = 30000;
};

class PageSizer {
public:
    /// A page that reads many tables holds at least this many events per table, within
    /// BacklogPages::widest: at 64 tables, 40,000 events.
    static constexpr int64_t kBacklogEventsPerTable = 625;

    /// Pages of `first` events (page_size) until one comes back full, then as `backlog` says
    /// (never fewer than `first`).
    PageSizer(int64_t first, BacklogPages backlog);

    /// Events the next page asks for when it reads the events of `tables` tables.
    int64_t limit(size_t tables) const;
    /// A page came back full: there is a backlog, and the pages after it are sized for one.
    void noteFullPage() { inBacklog_ = true; }

private:
    int64_t first_;
    BacklogPages backlog_;
    bool inBacklog_ = false;
};

}  // namespace tapdiffgen::core

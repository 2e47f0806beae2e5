// How many events the next diffgen page asks for. A run starts with pages of page_size; once a
// page comes back full there is a backlog, and the rest of the run reads pages of
// max_page_size. Every page costs the server and the tap a fixed amount besides its events: the
// page read, one re-pull statement per table and chunk of keys, and the bookmark after it. A
// larger page shares that out over more events, and keeps each table's statements large however
// many tables the events spread over (a page of 10,000 events over 64 tables made 64 statements
// of about 150 keys). Memory grows with the page (one page of events, the next one read ahead,
// and a share of its records), which is what max_page_size bounds.
#pragma once

#include <cstdint>

namespace tapdiffgen::core {

class PageSizer {
public:
    /// Pages of `first` events (page_size) until one comes back full, then of `backlog`
    /// (max_page_size; never fewer than `first`).
    PageSizer(int64_t first, int64_t backlog);

    int64_t limit() const { return limit_; }
    /// Sizes the next page after a full one; true when the limit changed.
    bool afterFullPage();

private:
    int64_t backlog_;
    int64_t limit_;
};

}  // namespace tapdiffgen::core

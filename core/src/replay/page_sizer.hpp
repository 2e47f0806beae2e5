// How many events the next diffgen page asks for. A page's rows are re-pulled with one
// statement per table (and chunk of keys), and each statement costs the server and the tap the
// same fixed amount however few keys it holds: a page of 10,000 events over 64 tables makes 64
// statements of about 150 keys. So after a full page the next one is sized to give each table
// the last one touched (the streams its plan has events for) as many events as page_size gives
// each of kTablesPerPage tables,
// between page_size and max_page_size, and shrinks back when the events gather on fewer
// tables. Memory grows with the page (one page of events, the next one read ahead, and a share
// of its records), which is what max_page_size bounds.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tapdiffgen::core {

class PageSizer {
public:
    /// The tables a page of page_size events is sized for: the default 10,000 events over 4
    /// tables, 2,500 each, make statements large enough that a bigger page gains nothing.
    static constexpr int64_t kTablesPerPage = 4;

    /// Pages of `least` events (page_size) to start with, never more than `most`
    /// (max_page_size, at least `least`).
    PageSizer(int64_t least, int64_t most);

    int64_t limit() const { return limit_; }
    /// Sizes the next page from a full page just read that held events of `tables` tables;
    /// true when the limit changed.
    bool afterFullPage(size_t tables);

    /// least * tables / kTablesPerPage, within [least, most].
    static int64_t limitFor(size_t tables, int64_t least, int64_t most);

private:
    int64_t least_;
    int64_t most_;
    int64_t limit_;
};

}  // namespace tapdiffgen::core

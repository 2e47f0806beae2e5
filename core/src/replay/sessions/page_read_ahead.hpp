// The next diffgen page, read on a second session of the same connector while the replay is
// still busy with the current one: the server reads the log while the tap plans, fetches and
// writes, so a page costs max(read, work) rather than read + work.
//
// A page read earlier is as good as one read later: it holds the events committed when it was
// read, and its horizon mark was taken by the same statement, so the horizon logic judges its
// gaps the same way. Only a read for exactly the query the replay then asks is used; any other
// is dropped. A read-ahead session that fails is closed and not used again by this object: the
// replay then reads every page itself, and its own session reports a real problem.
//
// The page is planned on the read-ahead's thread too, when the replay asks: planning a page
// takes as long as a few thousand re-pulled rows, and the servers would wait for it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "plugin/dialect_connection.hpp"
#include "replay/scan/page_plan.hpp"
#include "replay/sessions/session_worker.hpp"

namespace tapdiffgen::core {

/// The arguments of one DialectConnection::readDiffgenPage call.
struct PageQuery {
    TableRef diffgen;
    int64_t afterId = 0;
    int64_t upToId = 0;
    int64_t limit = 0;
    std::vector<std::string> tableNames;

    bool operator==(const PageQuery& other) const;
    EventPage readOn(DialectConnection& connection) const;
};

/// How a page read ahead is to be planned on the read-ahead's thread.
struct PlanRequest {
    /// Shared: a read may still run when the replay that asked for it is gone.
    std::shared_ptr<const PageStreams> streams;  // null: the page is not planned
    StreamSet readFor;
    bool skipBadEvents = false;
};

/// A page read ahead, and its plan when one was asked for and could be made.
struct FetchedPage {
    EventPage page;
    /// How long the page's read took, where it ran.
    double seconds = 0;
    /// Made for the streams `plannedFor` marks; nullopt when none was asked for or a bad event
    /// stopped it (the replay then plans the page itself, and reports the event).
    std::optional<PagePlan> plan;
    StreamSet plannedFor;
};

class PageReadAhead {
public:
    using Connect = SessionWorker::Connect;

    /// Opens its session with `connect` on the first start(), in its own thread.
    explicit PageReadAhead(Connect connect);

    /// Starts reading `query` in the background, and planning the page as `plan` asks; a read
    /// not taken yet is dropped.
    void start(PageQuery query, PlanRequest plan = {});
    /// The page read for exactly `query`, once it is read (and planned); nullopt when none was
    /// started for it or the read failed. Either way nothing is left pending.
    std::optional<FetchedPage> take(const PageQuery& query);

    /// Pages served by take(), and reads dropped unused, over this object's life.
    uint64_t pagesServed() const { return served_; }
    uint64_t readsDropped() const { return dropped_; }

private:
    /// Ends the pending read without using it.
    void drop();

    bool pending_ = false;  // a read was started and not taken
    PageQuery query_;
    std::optional<FetchedPage> read_;  // written by the worker's job
    uint64_t served_ = 0;
    uint64_t dropped_ = 0;
    // Last, so that it is gone (its job interrupted and over) before what the job writes to.
    SessionWorker worker_;
};

}  // namespace tapdiffgen::core

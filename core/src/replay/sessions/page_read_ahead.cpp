#include "replay/sessions/page_read_ahead.hpp"

#include <chrono>

namespace tapdiffgen::core {

bool PageQuery::operator==(const PageQuery& other) const {
    return diffgen.schema == other.diffgen.schema && diffgen.name == other.diffgen.name &&
           afterId == other.afterId && upToId == other.upToId && limit == other.limit &&
           tableNames == other.tableNames;
}

EventPage PageQuery::readOn(DialectConnection& connection) const {
    return connection.readDiffgenPage(diffgen, afterId, upToId, limit, tableNames);
}

PageReadAhead::PageReadAhead(Connect connect)
    : worker_(std::move(connect), "reading the next diffgen page on a second session",
              "this session reads every page itself") {}

void PageReadAhead::start(PageQuery query, PlanRequest plan) {
    if (pending_) drop();
    query_ = std::move(query);
    pending_ = worker_.start(
        [this, query = query_, plan = std::move(plan)](DialectConnection& connection) {
            read_.emplace();
            const auto started = std::chrono::steady_clock::now();
            read_->page = query.readOn(connection);
            read_->seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
            if (!plan.streams) return;
            PagePlan::Options options;
            options.readFor = plan.readFor;
            options.skipBadEvents = plan.skipBadEvents;
            try {
                read_->plan.emplace(read_->page, *plan.streams, options);
                read_->plannedFor = plan.readFor;
            } catch (const BadEventError&) {
                // Left to the replay, which plans the page itself and reports the event.
            }
        });
}

std::optional<FetchedPage> PageReadAhead::take(const PageQuery& query) {
    if (!pending_) return std::nullopt;
    if (!(query_ == query)) {
        drop();
        return std::nullopt;
    }
    pending_ = false;
    std::optional<FetchedPage> read;
    if (worker_.wait()) {
        ++served_;
        read = std::move(read_);
    }
    read_.reset();
    return read;
}

void PageReadAhead::drop() {
    pending_ = false;
    ++dropped_;
    if (!worker_.withdraw()) worker_.wait();
    read_.reset();
}

}  // namespace tapdiffgen::core

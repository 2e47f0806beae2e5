#include "replay/page_read_ahead.hpp"

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

void PageReadAhead::start(PageQuery query) {
    if (pending_) drop();
    query_ = std::move(query);
    pending_ = worker_.start([this, query = query_](DialectConnection& connection) {
        page_ = query.readOn(connection);
    });
}

std::optional<EventPage> PageReadAhead::take(const PageQuery& query) {
    if (!pending_) return std::nullopt;
    if (!(query_ == query)) {
        drop();
        return std::nullopt;
    }
    pending_ = false;
    std::optional<EventPage> page;
    if (worker_.wait()) {
        ++served_;
        page = std::move(page_);
    }
    page_.reset();
    return page;
}

void PageReadAhead::drop() {
    pending_ = false;
    ++dropped_;
    if (!worker_.withdraw()) worker_.wait();
    page_.reset();
}

}  // namespace tapdiffgen::core

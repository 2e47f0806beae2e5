#include "replay/page_read_ahead.hpp"

#include <exception>

#include "util/log.hpp"

namespace tapdiffgen::core {

bool PageQuery::operator==(const PageQuery& other) const {
    return diffgen.schema == other.diffgen.schema && diffgen.name == other.diffgen.name &&
           afterId == other.afterId && upToId == other.upToId && limit == other.limit &&
           tableNames == other.tableNames;
}

EventPage PageQuery::readOn(DialectConnection& connection) const {
    return connection.readDiffgenPage(diffgen, afterId, upToId, limit, tableNames);
}

PageReadAhead::PageReadAhead(Connect connect) : connect_(std::move(connect)) {}

PageReadAhead::~PageReadAhead() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        closing_ = true;
        // Under the lock the worker cannot close the session the read runs on.
        if (reading_ != nullptr) reading_->cancel();
    }
    changed_.notify_all();
    if (worker_.joinable()) worker_.join();
}

void PageReadAhead::start(PageQuery query) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (failed_) return;
    changed_.wait(lock, [this] { return slot_ != Slot::Reading; });
    if (slot_ != Slot::Empty) ++dropped_;
    page_.reset();
    query_ = std::move(query);
    slot_ = Slot::Queued;
    if (!worker_.joinable()) worker_ = std::thread([this] { work(); });
    lock.unlock();
    changed_.notify_all();
}

std::optional<EventPage> PageReadAhead::take(const PageQuery& query) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (slot_ == Slot::Empty) return std::nullopt;
    if (slot_ == Slot::Queued && !(query_ == query)) {
        slot_ = Slot::Empty;
        ++dropped_;
        return std::nullopt;
    }
    changed_.wait(lock, [this] { return slot_ == Slot::Done; });
    slot_ = Slot::Empty;
    if (!page_ || !(query_ == query)) {
        if (page_) ++dropped_;
        page_.reset();
        return std::nullopt;
    }
    ++served_;
    std::optional<EventPage> page = std::move(page_);
    page_.reset();
    return page;
}

namespace {

void warnFailed(const std::string& failure) {
    log::warning("reading the next diffgen page on a second session failed (" + failure +
                 "); this session reads every page itself");
}

}  // namespace

void PageReadAhead::work() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        changed_.wait(lock, [this] { return closing_ || slot_ == Slot::Queued; });
        if (closing_) return;
        slot_ = Slot::Reading;
        readQueued(lock);
        slot_ = Slot::Done;
        changed_.notify_all();
    }
}

// Called and returns with the lock held; the read itself runs without it.
void PageReadAhead::readQueued(std::unique_lock<std::mutex>& lock) {
    const PageQuery query = query_;
    lock.unlock();
    std::optional<EventPage> page;
    bool failed = false;
    try {
        if (!connection_) connection_ = connect_();
        lock.lock();
        reading_ = connection_.get();
        const bool closing = closing_;
        lock.unlock();
        if (!closing) page = query.readOn(*connection_);
    } catch (const DialectError& error) {
        failed = true;
        // Cancelled: the replay is closing this object, and nothing went wrong.
        if (error.status() != TDG_CANCELLED) warnFailed(error.what());
    } catch (const std::exception& error) {
        failed = true;
        warnFailed(error.what());
    }
    lock.lock();
    reading_ = nullptr;
    if (failed) {
        failed_ = true;
        lock.unlock();
        connection_.reset();
        lock.lock();
    }
    page_ = std::move(page);
}

}  // namespace tapdiffgen::core

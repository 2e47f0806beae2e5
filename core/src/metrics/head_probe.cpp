#include "metrics/head_probe.hpp"

#include "util/log.hpp"

namespace tapdiffgen::core {

HeadProbe::HeadProbe(const ConnectionFactory& connections, TableRef diffgen, RunObserver& observer,
                     std::chrono::milliseconds interval)
    : connections_(connections),
      diffgen_(std::move(diffgen)),
      observer_(observer),
      interval_(interval),
      thread_([this] { run(); }) {}

HeadProbe::~HeadProbe() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

void HeadProbe::run() {
    std::unique_ptr<DialectConnection> connection;
    bool warned = false;
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        lock.unlock();
        readHead(connection, warned);
        lock.lock();
        wake_.wait_for(lock, interval_, [this] { return stopping_; });
    }
}

void HeadProbe::readHead(std::unique_ptr<DialectConnection>& connection, bool& warned) {
    try {
        if (!connection) connection = connections_.connect(SessionRole::HeadProbe);
        const std::optional<JournalBounds> bounds = connection->journalBounds(diffgen_);
        std::optional<int64_t> newest;
        if (bounds) {
            newest = bounds->empty ? 0 : bounds->newestId;
        } else {
            // A plugin that cannot read the bounds still tells the newest id.
            newest = connection->maxDiffgenId(diffgen_).value_or(0);
        }
        observer_.journalHeadSeen(*newest);
        warned = false;
    } catch (const std::exception& failure) {
        connection.reset();
        // Once per outage: the run itself reports what it sees of the same server.
        if (!warned) {
            log::warning(std::string("metrics: reading the diffgen log's head failed (") +
                         failure.what() + "); events behind are not updated until it works again");
            warned = true;
        }
    }
}

}  // namespace tapdiffgen::core

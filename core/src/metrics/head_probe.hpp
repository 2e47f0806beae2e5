// Learns the log's head while the run's own thread may be busy or blocked (on a full stdout
// pipe, say), so that the metrics tell how far behind the run is exactly when it falls behind.
// A thread of its own, with a session of its own opened through the run's connection factory:
// once a second it reads the log's bounds (the call the journal watch makes, a few index
// reads) and hands the newest id to the observer. It only reads. A failed read is logged once
// and the session opened again at the next tick; the run never waits for the probe.
#pragma once

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

#include "config/table_ref.hpp"
#include "plugin/connection_factory.hpp"
#include "replay/observe/run_observer.hpp"

namespace tapdiffgen::core {

class HeadProbe {
public:
    HeadProbe(const ConnectionFactory& connections, TableRef diffgen, RunObserver& observer,
              std::chrono::milliseconds interval = std::chrono::seconds(1));
    /// Stops the thread and waits for it (at most one read or connect).
    ~HeadProbe();
    HeadProbe(const HeadProbe&) = delete;
    HeadProbe& operator=(const HeadProbe&) = delete;

private:
    const ConnectionFactory& connections_;
    const TableRef diffgen_;
    RunObserver& observer_;
    const std::chrono::milliseconds interval_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::thread thread_;

    void run();
    void readHead(std::unique_ptr<DialectConnection>& connection, bool& warned);
};

}  // namespace tapdiffgen::core

// Another session of the same connector and a thread of its own that runs one job on it at a
// time, while the replay goes on with its own session: what the read-ahead of diffgen pages and
// the parallel re-pulls have in common.
//
// The session opens on the first job, in the thread. A job that fails with a DialectError has
// failed the session: it is warned about once (unless this worker cancelled it), the session
// is closed, and every later job is refused, so the caller does the work on its own session,
// which reports a real problem. Any other exception belongs to the caller and is rethrown by
// wait().
#pragma once

#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "plugin/dialect_connection.hpp"

namespace tapdiffgen::core {

class SessionWorker {
public:
    using Connect = std::function<std::unique_ptr<DialectConnection>()>;
    using Job = std::function<void(DialectConnection&)>;

    /// A failure is warned as "<task> failed (<why>); <fallback>".
    SessionWorker(Connect connect, std::string task, std::string fallback);
    /// Interrupts a job in flight (DialectConnection::cancel), waits for it, closes the session.
    ~SessionWorker();
    SessionWorker(const SessionWorker&) = delete;
    SessionWorker& operator=(const SessionWorker&) = delete;

    /// Queues `job` once the running one, if any, is over; a queued job not started yet is
    /// replaced. False when the session has failed: nothing is queued.
    bool start(Job job);
    /// False once the session has failed: start() refuses every job.
    bool usable();
    /// Takes back the queued job if it has not started: whether it was taken back.
    bool withdraw();
    /// Interrupts the running job, if any (DialectConnection::cancel); wait() still follows.
    void interrupt();
    /// Waits for the job started last: true when it ran to its end, false when there was none or
    /// it failed the session. Rethrows any other exception the job threw.
    bool wait();

private:
    enum class State { Idle, Queued, Running, Done };

    void work();
    void runQueued(std::unique_lock<std::mutex>& lock);
    bool connected();
    /// Cancels the job in flight, if any, and remembers that this worker asked: the failure it
    /// causes is no news. Called with the lock held.
    void cancelRunning();
    void warnFailed(const std::string& why) const;

    Connect connect_;
    std::string task_;
    std::string fallback_;
    std::mutex mutex_;
    std::condition_variable changed_;
    State state_ = State::Idle;
    Job job_;
    bool succeeded_ = false;
    std::exception_ptr thrown_;
    bool failed_ = false;  // the session failed: no more jobs
    bool closing_ = false;
    std::unique_ptr<DialectConnection> connection_;  // used by the worker thread only
    DialectConnection* running_ = nullptr;           // the session a job is running on
    bool cancelled_ = false;                         // this worker cancelled the running job
    std::thread thread_;
};

}  // namespace tapdiffgen::core

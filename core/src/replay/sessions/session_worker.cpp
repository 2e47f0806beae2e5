#include "replay/sessions/session_worker.hpp"

#include <optional>

#include "util/log.hpp"

namespace tapdiffgen::core {

SessionWorker::SessionWorker(Connect connect, std::string task, std::string fallback)
    : connect_(std::move(connect)), task_(std::move(task)), fallback_(std::move(fallback)) {}

SessionWorker::~SessionWorker() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        closing_ = true;
        // Under the lock the worker cannot close the session the job runs on.
        cancelRunning();
    }
    changed_.notify_all();
    if (thread_.joinable()) thread_.join();
}

bool SessionWorker::start(Job job) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [this] { return state_ != State::Running; });
    if (failed_) return false;
    job_ = std::move(job);
    succeeded_ = false;
    thrown_ = nullptr;
    state_ = State::Queued;
    if (!thread_.joinable()) thread_ = std::thread([this] { work(); });
    lock.unlock();
    changed_.notify_all();
    return true;
}

bool SessionWorker::usable() {
    std::lock_guard<std::mutex> lock(mutex_);
    return !failed_;
}

bool SessionWorker::withdraw() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (state_ != State::Queued) return false;
    state_ = State::Idle;
    job_ = nullptr;
    return true;
}

void SessionWorker::interrupt() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (state_ == State::Queued) {
        state_ = State::Done;
        job_ = nullptr;
        changed_.notify_all();
        return;
    }
    cancelRunning();
}

void SessionWorker::cancelRunning() {
    if (running_ == nullptr) return;
    running_->cancel();
    cancelled_ = true;
}

bool SessionWorker::wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    if (state_ == State::Idle) return false;
    changed_.wait(lock, [this] { return state_ == State::Done; });
    state_ = State::Idle;
    if (thrown_) std::rethrow_exception(std::exchange(thrown_, nullptr));
    return succeeded_;
}

void SessionWorker::work() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        changed_.wait(lock, [this] { return closing_ || state_ == State::Queued; });
        if (closing_) return;
        state_ = State::Running;
        runQueued(lock);
        state_ = State::Done;
        changed_.notify_all();
    }
}

// Called and returns with the lock held; the job itself runs without it.
void SessionWorker::runQueued(std::unique_lock<std::mutex>& lock) {
    const Job job = std::move(job_);
    job_ = nullptr;
    lock.unlock();
    bool failed = !connected();
    bool succeeded = false;
    std::exception_ptr thrown;
    std::optional<std::string> failure;
    if (!failed) {
        lock.lock();
        running_ = connection_.get();
        cancelled_ = false;
        const bool closing = closing_;
        lock.unlock();
        try {
            if (!closing) {
                job(*connection_);
                succeeded = true;
            }
        } catch (const DialectError& error) {
            failed = true;
            failure = error.what();
        } catch (...) {
            thrown = std::current_exception();
        }
    }
    lock.lock();
    running_ = nullptr;
    // Cancelled by this worker: the replay is closing it or unwinding, and nothing went wrong
    // here. A cancellation nobody here asked for (a server's KILL interrupts the query before
    // it ends the connection) is a failure like any other.
    if (failure && !cancelled_) {
        lock.unlock();
        warnFailed(*failure);
        lock.lock();
    }
    if (failed) {
        failed_ = true;
        lock.unlock();
        connection_.reset();
        lock.lock();
    }
    succeeded_ = succeeded;
    thrown_ = thrown;
}

// Whatever keeps the session from opening (its tunnel too) fails the session, not the run.
bool SessionWorker::connected() {
    if (connection_) return true;
    try {
        connection_ = connect_();
        return true;
    } catch (const std::exception& error) {
        warnFailed(error.what());
        return false;
    }
}

void SessionWorker::warnFailed(const std::string& why) const {
    log::warning(task_ + " failed (" + why + "); " + fallback_);
}

}  // namespace tapdiffgen::core

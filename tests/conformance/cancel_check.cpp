// check "cancel": TdgDriver.cancel from another thread stops a long call, which returns
// TDG_CANCELLED, and the connection answers the next call correctly; a cancel sent while no
// call runs stops nothing.
//
//   {"check": "cancel", "table": "tdg_conf_cancel", "key": "id", "row_count": 20000,
//    "batch_rows": 100, "calls": ["scan_table", "fetch_rows"]}
//
// The table holds ids 1..row_count. The cancel is sent while the plugin waits for the sink of
// its first batch to return, so the call is certainly running, with most rows still to come.
//
// check "cancel-statement": the cancel must interrupt a statement already running on the
// server, before any row came back, within a bound.
//
//   {"check": "cancel-statement", "table": "tdg_conf_slow", "key": "id", "row_count": 1,
//    "calls": ["scan_table", "fetch_rows"], "statement_seconds": 5, "first_cancel_ms": 300,
//    "bound_ms": 2000}
//
// The table (a view) holds ids 1..row_count behind a condition that keeps the server busy for
// statement_seconds before the first row. first_cancel_ms into the call, once the statement is
// surely on the server, a cancel is sent, then again every kCancelRepeat until the call
// returns: it must return CANCELLED within bound_ms of the first. A cancel that only stops the
// row stream between batches (the SDK's DriverBase does that by itself) returns only once the
// statement has run its course. Then the connection must answer a describe_table. The
// statement is short and the bound loose enough for a loaded machine: a working cancel costs
// first_cancel_ms and a round trip, a broken one statement_seconds.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <future>
#include <map>
#include <mutex>
#include <thread>

#include "case_result.hpp"
#include "elapsed.hpp"
#include "expected_json.hpp"
#include "live_cases.hpp"
#include "live_connection.hpp"
#include "read_target.hpp"

namespace tapdiffgen::conformance {
namespace {

using Poco::JSON::Object;

int64_t countRows(core::DialectConnection& connection, const ReadTarget& target, const Read& read) {
    int64_t rows = 0;
    read(connection, target, [&](const TdgRowBatch& batch) { rows += batch.num_rows; });
    return rows;
}

// A thread that calls cancel() once told to, and tells back when it has. However the read
// ends, the thread is released and joined.
class Canceller {
public:
    explicit Canceller(core::DialectConnection& connection)
        : thread_([&connection, go = go_.get_future(), this]() mutable {
              go.wait();
              connection.cancel();
              sent_.set_value();
          }) {}
    ~Canceller() {
        release();
        thread_.join();
    }
    Canceller(const Canceller&) = delete;
    Canceller& operator=(const Canceller&) = delete;

    /// From the sink: sends the cancel on the other thread and waits until it was sent.
    void cancelNow() {
        release();
        sent_.get_future().wait();
    }
    bool used() const { return released_; }

private:
    void release() {
        if (released_) return;
        released_ = true;
        go_.set_value();
    }

    std::promise<void> go_;
    std::promise<void> sent_;
    bool released_ = false;
    std::thread thread_;  // last: starts once the promises exist
};

// The call, cancelled from another thread during its first batch; returns the rows it
// delivered before it stopped.
int64_t cancelledRead(core::DialectConnection& connection, const ReadTarget& target,
                      const Read& read, const std::string& name) {
    int64_t rows = 0;
    Canceller canceller(connection);
    auto sink = [&](const TdgRowBatch& batch) {
        rows += batch.num_rows;
        if (!canceller.used()) canceller.cancelNow();
    };
    try {
        read(connection, target, sink);
    } catch (const core::DialectError& failure) {
        require(canceller.used(),
                name + " failed before its first batch: " + describeError(failure));
        require(failure.status() == TDG_CANCELLED,
                name + " failed with " + describeError(failure) + " instead of CANCELLED");
        require(std::string(failure.what()).size() > 0, name + ": CANCELLED without a message");
        return rows;
    }
    require(canceller.used(), name + " delivered no batch, so nothing could be cancelled");
    throw CaseFailure(name + " returned OK after " + std::to_string(rows) + " of " +
                      std::to_string(target.rowCount) +
                      " rows although it was cancelled during its first batch");
}

}  // namespace

std::string checkCancel(const LiveContext& context, const CaseFiles& files) {
    auto connection = openConnection(context, files);
    std::string stage = "describe_table";
    try {
        ReadTarget target = readTargetOf(*connection, files.expected);
        std::vector<std::string> names = stringsOf(arrayOf(files.expected, "calls"));
        std::string detail;
        for (const std::string& name : names) {
            const Read& read = readNamed(name);
            stage = name + " cancelled";
            int64_t delivered = cancelledRead(*connection, target, read, name);
            stage = name + " after the cancelled one";
            int64_t rows = countRows(*connection, target, read);
            require(rows == target.rowCount, name + " after a cancelled " + name + " gave " +
                                                 std::to_string(rows) + " rows, expected " +
                                                 std::to_string(target.rowCount));
            detail += (detail.empty() ? "" : ", ") + name + " cancelled after " +
                      std::to_string(delivered) + " rows";
        }
        stage = "scan_table after a cancel sent between calls";
        connection->cancel();
        int64_t rows = countRows(*connection, target, readNamed("scan_table"));
        require(rows == target.rowCount,
                "a cancel sent while no call ran cut the next scan_table to " +
                    std::to_string(rows) + " rows");
        return detail + "; the connection answered correctly afterwards";
    } catch (const core::DialectError& failure) {
        throw CaseFailure(stage + ": " + describeError(failure));
    }
}

namespace {

constexpr auto kCancelRepeat = std::chrono::milliseconds(200);

// Sends cancel() after a delay and then again and again until stopped; remembers when it sent
// the first. Stopped and joined however the read ends, before the connection is used again.
class RepeatedCanceller {
public:
    RepeatedCanceller(core::DialectConnection& connection, std::chrono::milliseconds delay)
        : thread_([this, &connection, delay] { run(connection, delay); }) {}
    ~RepeatedCanceller() { stop(); }
    RepeatedCanceller(const RepeatedCanceller&) = delete;
    RepeatedCanceller& operator=(const RepeatedCanceller&) = delete;

    void stop() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stopped_ = true;
        }
        wake_.notify_all();
        if (thread_.joinable()) thread_.join();
    }
    /// When the first cancel went out; nullopt when none did.
    std::optional<Clock::time_point> firstSent() const { return first_; }

private:
    void run(core::DialectConnection& connection, std::chrono::milliseconds delay) {
        std::unique_lock<std::mutex> lock(mutex_);
        if (wake_.wait_for(lock, delay, [this] { return stopped_; })) return;
        first_ = Clock::now();
        do {
            connection.cancel();
        } while (!wake_.wait_for(lock, kCancelRepeat, [this] { return stopped_; }));
    }

    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopped_ = false;
    std::optional<Clock::time_point> first_;
    std::thread thread_;  // last: starts once the rest exists
};

struct Bound {
    int64_t firstCancelMs = 0;
    int64_t boundMs = 0;
    int64_t statementSeconds = 0;
};

// One call on the slow table, cancelled while its statement runs; returns how long after the
// first cancel it returned.
int64_t interruptedRead(core::DialectConnection& connection, const ReadTarget& target,
                        const Read& read, const std::string& name, const Bound& bound) {
    std::optional<core::DialectError> failure;
    Clock::time_point returned;
    std::optional<Clock::time_point> first;
    {
        RepeatedCanceller canceller(connection, std::chrono::milliseconds(bound.firstCancelMs));
        try {
            read(connection, target, [](const TdgRowBatch&) {});
        } catch (const core::DialectError& error) {
            failure = error;
        }
        returned = Clock::now();
        canceller.stop();
        first = canceller.firstSent();
    }
    require(first.has_value(),
            name + " returned before the first cancel, " + std::to_string(bound.firstCancelMs) +
                " ms into the call: the case's statement does not keep the server busy for " +
                std::to_string(bound.statementSeconds) + " s");
    const int64_t took = millisecondsBetween(*first, returned);
    require(took <= bound.boundMs,
            name + " returned " + std::to_string(took) + " ms after the first cancel (bound " +
                std::to_string(bound.boundMs) +
                " ms): the cancel did not interrupt the statement " +
                "running on the server (it runs " + std::to_string(bound.statementSeconds) +
                " s), the call waited for its rows");
    require(failure.has_value(),
            name + " returned OK although it was cancelled while its " + "statement ran");
    require(failure->status() == TDG_CANCELLED,
            name + " failed with " + describeError(*failure) + " instead of CANCELLED");
    return took;
}

}  // namespace

std::string checkCancelStatement(const LiveContext& context, const CaseFiles& files) {
    auto connection = openConnection(context, files);
    const Bound bound{integerOf(files.expected, "first_cancel_ms"),
                      integerOf(files.expected, "bound_ms"),
                      integerOf(files.expected, "statement_seconds")};
    std::string stage = "describe_table";
    try {
        ReadTarget target = readTargetOf(*connection, files.expected);
        std::string detail;
        for (const std::string& name : stringsOf(arrayOf(files.expected, "calls"))) {
            const Read& read = readNamed(name);
            stage = name + " cancelled while its statement ran";
            int64_t took = interruptedRead(*connection, target, read, name, bound);
            stage = "describe_table after the cancelled " + name;
            connection->describeTable(target.table);
            detail += (detail.empty() ? "" : ", ") + name + " stopped " + std::to_string(took) +
                      " ms after the first cancel";
        }
        return detail + "; the connection answered afterwards";
    } catch (const core::DialectError& failure) {
        throw CaseFailure(stage + ": " + describeError(failure));
    }
}

}  // namespace tapdiffgen::conformance

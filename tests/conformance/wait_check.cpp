// check "wait-for-change": TdgDriver.wait_for_change (ABI revision 3) waits out its time-out
// when nothing happens, and wakes when the database signals a commit.
//
//   {"check": "wait-for-change", "options": {"notify_channel": "tdg_conf_wake"},
//    "timeout_ms": 300, "expect": "signal"}
//
// "expect": "signal": a wait with nothing sent answers 0 after about timeout_ms, and after
// writer.sql (which signals, e.g. NOTIFY) a wait answers 1 well before kSignalWaitSeconds.
// "not-implemented": the connection has nothing to wait on and answers NOT_IMPLEMENTED (the
// host then polls). Either way the connection answers the next call. A plugin without the
// member passes with a note.
#include <chrono>
#include <optional>

#include "case_result.hpp"
#include "elapsed.hpp"
#include "expected_json.hpp"
#include "live_cases.hpp"
#include "live_connection.hpp"
#include "setup_sql.hpp"

namespace tapdiffgen::conformance {
namespace {

constexpr int64_t kSignalWaitSeconds = 10;
// A loaded machine may wake a sleeper late, never early: the slack is on one side only.
constexpr auto kLateWake = std::chrono::seconds(5);

std::string checkQuietThenSignal(const LiveContext& context, const CaseFiles& files,
                                 core::DialectConnection& connection) {
    require(files.writerSql.has_value(),
            "expected.json expects a signal but there is no writer.sql");
    if (!context.setupCommand) throw CaseSkipped("needs --setup-command for its writer SQL");
    const int64_t timeoutMs = integerOf(files.expected, "timeout_ms");
    Clock::time_point start = Clock::now();
    std::optional<bool> quiet = connection.waitForChange(timeoutMs);
    int64_t waited = millisecondsSince(start);
    require(quiet.has_value(), "wait_for_change answered NOT_IMPLEMENTED with a channel set");
    require(!*quiet, "wait_for_change reported a change although nothing was signalled");
    require(waited >= timeoutMs, "wait_for_change(" + std::to_string(timeoutMs) +
                                     ") returned after " + std::to_string(waited) + " ms");
    require(std::chrono::milliseconds(waited) <= std::chrono::milliseconds(timeoutMs) + kLateWake,
            "wait_for_change(" + std::to_string(timeoutMs) + ") took " + std::to_string(waited) +
                " ms");
    runSql(*context.setupCommand, *files.writerSql, "writer SQL");
    start = Clock::now();
    std::optional<bool> woken = connection.waitForChange(kSignalWaitSeconds * 1000);
    waited = millisecondsSince(start);
    require(woken.value_or(false), "wait_for_change did not report the signal within " +
                                       std::to_string(kSignalWaitSeconds) + " s");
    return "waited " + std::to_string(timeoutMs) + " ms out, woken " + std::to_string(waited) +
           " ms after the signal";
}

}  // namespace

std::string checkWaitForChange(const LiveContext& context, const CaseFiles& files) {
    if (context.subject->driver().abi_version < TDG_ABI_VERSION_3 ||
        context.subject->driver().wait_for_change == nullptr) {
        return "no wait_for_change";
    }
    auto connection = openConnection(context, files);
    const std::string expect = textOf(files.expected, "expect");
    std::string detail;
    try {
        if (expect == "signal") {
            detail = checkQuietThenSignal(context, files, *connection);
        } else if (expect == "not-implemented") {
            require(!connection->waitForChange(0).has_value(),
                    "wait_for_change waited although the connection has nothing to wait on");
            detail = "NOT_IMPLEMENTED: the host polls";
        } else {
            throw CaseFailure("expected.json: unknown expect '" + expect + "'");
        }
        connection->serverVersion();
    } catch (const core::DialectError& failure) {
        throw CaseFailure("wait_for_change: " + describeError(failure));
    }
    return detail + "; the connection answered afterwards";
}

}  // namespace tapdiffgen::conformance

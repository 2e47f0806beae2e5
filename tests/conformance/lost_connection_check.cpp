// check "lost-connection": a session the server ends in the middle of a call (an administrator's
// pg_terminate_backend, KILL CONNECTION, a failover, a restart) fails the call with TDG_IO and
// retryable set, so the engine reconnects and reads again instead of stopping the run.
//
//   {"check": "lost-connection", "table": "tdg_conf_lost", "key": "id", "row_count": 1,
//    "calls": ["scan_table", "fetch_rows", "scan_chunk"], "end_after_ms": 300, "bound_ms": 5000,
//    "option_sets": [{}, {"ssl_mode": "disable"}]}
//
// The table (a view) holds one row behind a condition that keeps the server busy for seconds.
// end_after_ms into each call, with its statement surely running, writer.sql ends the session
// from the server side through the setup command (an administrator's second connection); it
// finds the plugin's session by the statement it runs, which names the table. The call must
// then fail within bound_ms with status IO and retryable set. Each call gets a connection of
// its own (the ended one is gone). A plugin reading through a client that hides a lost
// connection behind a generic error (UNKNOWN, or not retryable) fails here: the engine would
// stop the run where a reconnect would have gone on. Each call is tried once per entry of
// "option_sets" (settings added to the case's), as a client may report a session ended under
// TLS through another error than one ended on a plain socket: the servers offer TLS, which a
// plugin's default takes.
#include <chrono>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "case_result.hpp"
#include "expected_json.hpp"
#include "live_cases.hpp"
#include "live_connection.hpp"
#include "read_target.hpp"
#include "setup_sql.hpp"

namespace tapdiffgen::conformance {
namespace {

// One call whose session the server ends; "" when it failed as it must, else why not.
std::string endedCall(const LiveContext& context, const CaseFiles& files, const OptionList& more,
                      const std::string& call, int64_t endAfterMs, int64_t boundMs) {
    auto connection = openConnection(context, files, more);
    const ReadTarget target = readTargetOf(*connection, files.expected);
    const Read& read = readNamed(call);
    auto running = std::async(std::launch::async, [&]() -> std::optional<core::DialectError> {
        try {
            read(*connection, target, [](const TdgRowBatch&) {});
            return std::nullopt;
        } catch (const core::DialectError& failure) {
            return failure;
        }
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(endAfterMs));
    runSql(*context.setupCommand, *files.writerSql, "writer SQL (ending the plugin's session)");
    if (running.wait_for(std::chrono::milliseconds(boundMs)) != std::future_status::ready) {
        running.wait();  // the future's destructor would wait anyway; say how long it took
        return call + " went on for more than " + std::to_string(boundMs) +
               " ms after the server ended its session";
    }
    std::optional<core::DialectError> failure;
    try {
        failure = running.get();
    } catch (const CaseSkipped&) {
        return "";
    }
    if (!failure)
        return call + " returned normally although the server ended its session mid-statement";
    if (failure->status() != TDG_IO || !failure->retryable()) {
        return call + " failed with " + describeError(*failure) +
               (failure->retryable() ? " (retryable)" : " (not retryable)") +
               " when the server ended its session: a lost connection is IO with retryable set, "
               "so that the engine reconnects and reads again";
    }
    return "";
}

// "option_sets" as option lists; one empty list (the case's options alone) without it.
std::vector<OptionList> optionSets(const Poco::JSON::Object::Ptr& expected) {
    if (!expected->has("option_sets")) return {OptionList{}};
    std::vector<OptionList> sets;
    Poco::JSON::Array::Ptr entries = arrayOf(expected, "option_sets");
    for (size_t i = 0; i < entries->size(); ++i) {
        Poco::JSON::Object::Ptr entry = entries->getObject(static_cast<unsigned>(i));
        require(!entry.isNull(), "option_sets: entry " + std::to_string(i + 1) + " is no object");
        OptionList options;
        for (const auto& [key, value] : *entry) options.emplace_back(key, value.toString());
        sets.push_back(std::move(options));
    }
    require(!sets.empty(), "option_sets is empty");
    return sets;
}

// " with ssl_mode=disable" for messages; "" for the case's options alone.
std::string describedSet(const OptionList& options) {
    std::string text;
    for (const auto& [key, value] : options) {
        text += (text.empty() ? " with " : ", ") + key + "=" + value;
    }
    return text;
}

}  // namespace

std::string checkLostConnection(const LiveContext& context, const CaseFiles& files) {
    require(files.writerSql.has_value(),
            "the case has no writer.sql to end the plugin's session with");
    const int64_t endAfterMs = integerOf(files.expected, "end_after_ms");
    const int64_t boundMs = integerOf(files.expected, "bound_ms");
    const std::vector<std::string> calls = stringsOf(arrayOf(files.expected, "calls"));
    std::string callList;
    for (const std::string& call : calls) callList += (callList.empty() ? "" : ", ") + call;
    std::string detail;
    try {
        for (const OptionList& more : optionSets(files.expected)) {
            for (const std::string& call : calls) {
                const std::string problem =
                    endedCall(context, files, more, call, endAfterMs, boundMs);
                require(problem.empty(), problem + describedSet(more));
            }
            detail += (detail.empty() ? "" : "; ") + callList + describedSet(more);
        }
    } catch (const core::DialectError& failure) {
        throw CaseFailure("describe_table: " + describeError(failure));
    }
    return detail + ": IO, retryable, when the server ended the session mid-statement";
}

}  // namespace tapdiffgen::conformance

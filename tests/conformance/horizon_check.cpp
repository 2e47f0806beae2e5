// check "horizon": a page's horizon mark covers a writer whose transaction began after the last
// commit, for as long as that transaction runs.
//
//   {"check": "horizon", "diffgen": "tdg_conf_horizon", "tables": ["alpha"], "after": 3,
//    "writer_seconds": 4, "writer_signal_id": 4}
//
// The case's log is committed before the check starts. With no writer running, the marks of the
// page after 0 and of the (empty) page after `after` must turn final. Then writer.sql runs
// beside the plugin: it commits the event writer_signal_id (the last commit; the check waits
// until max_diffgen_id shows it), then begins a transaction, inserts an id above `after` into
// the log and holds the transaction open until writer_seconds after it was started. A mark is
// taken of a fresh read of the page after `after` once that transaction is surely running
// (kWriterSettle after the signal), and check_horizon is asked about it (and its successors)
// until shortly before the writer ends: it must answer pending every time, since the
// transaction may still commit an id in the page's range. A mark that counts only the
// transactions older than the last commit (such as PostgreSQL's snapshot xmax), or one taken
// earlier than its page, misses that writer and turns final. Once the writer has rolled back,
// the mark (or its successor) must turn final.
//
// "writer_seconds": null skips the writer (SQLite: one writer at a time, so no id can appear
// below those committed); so does a plugin without check_horizon, or one that cannot tell.
#include <thread>

#include "case_result.hpp"
#include "elapsed.hpp"
#include "expected_json.hpp"
#include "horizon_marks.hpp"
#include "live_cases.hpp"
#include "live_connection.hpp"
#include "setup_sql.hpp"

namespace tapdiffgen::conformance {
namespace {

// Marks are judged until this long before the writer's planned end: it ends later, never
// earlier, since it was started after the time was taken.
constexpr auto kBeforeWriterEnds = std::chrono::seconds(1);
// From the writer's signal commit to its transaction's first insert: two statements of one
// client session, a few milliseconds; this leaves a loaded machine ample room.
constexpr auto kWriterSettle = std::chrono::milliseconds(300);

struct HorizonCase {
    core::TableRef diffgen;
    std::vector<std::string> tables;
    int64_t after = 0;
};

TdgHorizonMark freshMark(core::DialectConnection& connection, const HorizonCase& log) {
    return connection.readDiffgenPage(log.diffgen, log.after, INT64_MAX, 10, log.tables).mark();
}

// Waits until the log's highest id is `signal`, which the writer commits just before it begins
// its transaction; false when that does not happen before `until`.
bool awaitSignal(core::DialectConnection& connection, const HorizonCase& log, int64_t signal,
                 Clock::time_point until) {
    while (Clock::now() < until) {
        if (connection.maxDiffgenId(log.diffgen).value_or(0) >= signal) return true;
        std::this_thread::sleep_for(kHorizonPoll);
    }
    return false;
}

// Asks about `mark` until `until`: pending every time, or a CaseFailure. Returns the answers.
int stillPending(core::DialectConnection& connection, TdgHorizonMark mark,
                 Clock::time_point until) {
    const Clock::time_point taken = Clock::now();
    int answers = 0;
    while (Clock::now() < until) {
        std::optional<bool> final = connection.checkHorizon(mark);
        require(final.has_value(), "check_horizon stopped answering while the writer ran");
        require(!*final,
                "the mark of a page read while a writer held a transaction open "
                "(begun after the last commit, with an id in the page's range) was "
                "called final " +
                    std::to_string(millisecondsSince(taken)) +
                    " ms later, while that transaction still ran");
        ++answers;
        std::this_thread::sleep_for(kHorizonPoll);
    }
    return answers;
}

std::string checkWriter(const LiveContext& context, const CaseFiles& files,
                        core::DialectConnection& connection, const HorizonCase& log) {
    const Poco::JSON::Object::Ptr& expected = files.expected;
    if (expected->isNull("writer_seconds")) return "";
    require(files.writerSql.has_value(), "expected.json has writer_seconds but no writer.sql");
    const auto writerEnds =
        Clock::now() + std::chrono::seconds(integerOf(expected, "writer_seconds"));
    BackgroundSql running(*context.setupCommand, *files.writerSql, "writer SQL");
    require(awaitSignal(connection, log, integerOf(expected, "writer_signal_id"), writerEnds),
            "the writer's signal, event " +
                std::to_string(integerOf(expected, "writer_signal_id")) +
                ", never showed in the log");
    std::this_thread::sleep_for(kWriterSettle);
    const TdgHorizonMark mark = freshMark(connection, log);
    require(Clock::now() < writerEnds - kBeforeWriterEnds,
            "the writer's transaction ended before a mark could be taken beside it");
    int answers = stillPending(connection, mark, writerEnds - kBeforeWriterEnds);
    running.finish();
    awaitFinal(connection, mark,
               "the mark taken while the writer ran stays pending after it "
               "rolled back");
    return ", a mark pending while a writer ran (" + std::to_string(answers) +
           " checks) and final after it";
}

}  // namespace

std::string checkHorizon(const LiveContext& context, const CaseFiles& files) {
    const Poco::JSON::Object::Ptr& expected = files.expected;
    HorizonCase log{{"", textOf(expected, "diffgen")},
                    stringsOf(arrayOf(expected, "tables")),
                    integerOf(expected, "after")};
    auto connection = openConnection(context, files);
    std::string stage = "read_diffgen_page";
    try {
        std::vector<PageMark> marks = {
            {"the page after 0",
             connection->readDiffgenPage(log.diffgen, 0, INT64_MAX, 10, log.tables).mark()},
            {"the page after " + std::to_string(log.after), freshMark(*connection, log)}};
        stage = "check_horizon";
        std::string detail = checkMarksFinal(*connection, marks);
        if (detail != std::to_string(marks.size()) + " marks final") return detail;
        stage = "check_horizon beside a writer";
        return detail + checkWriter(context, files, *connection, log);
    } catch (const core::DialectError& failure) {
        throw CaseFailure(stage + ": " + describeError(failure));
    }
}

}  // namespace tapdiffgen::conformance

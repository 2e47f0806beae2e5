// check "journal-bounds": journal_bounds (ABI revision 5) against logs whose contents the case
// knows.
//
//   {"check": "journal-bounds",
//    "logs": [{"name": "pruned", "diffgen": "tdg_conf_journal", "ids": [4, 5, 6],
//              "ids_taken": 6}, ...]}
//
// Each log's bounds must be those of its rows: empty exactly when "ids" is, else min and max of
// "ids". "ids_taken" is how many ids the log's id source handed out while the setup filled it
// (some since pruned); a next id, when the plugin knows one, must lie above all of them, or the
// engine would take a log whose ids go on for one that was reset. A plugin without the member,
// or that answers NOT_IMPLEMENTED, passes: the engine then says once that it cannot notice a
// pruned or reset log.
#include <algorithm>

#include "case_result.hpp"
#include "expected_json.hpp"
#include "live_cases.hpp"
#include "live_connection.hpp"

namespace tapdiffgen::conformance {
namespace {

using Poco::JSON::Object;

std::string boundsText(const core::JournalBounds& bounds) {
    std::string text =
        bounds.empty ? "empty"
                     : std::to_string(bounds.oldestId) + ".." + std::to_string(bounds.newestId);
    return text + ", next id " + (bounds.nextId ? std::to_string(*bounds.nextId) : "unknown");
}

// Whether the plugin knew the log's next id; throws CaseFailure when its bounds are wrong.
bool checkLog(const core::JournalBounds& bounds, const Object::Ptr& log) {
    const std::string name = "log '" + textOf(log, "name") + "'";
    std::vector<int64_t> ids;
    for (const std::string& id : stringsOf(arrayOf(log, "ids"))) ids.push_back(std::stoll(id));
    const std::string got = name + ": bounds " + boundsText(bounds);
    require(bounds.empty == ids.empty(),
            got + ", expected " + (ids.empty() ? "an empty log" : "its rows' ids"));
    if (!ids.empty()) {
        const auto [oldest, newest] = std::minmax_element(ids.begin(), ids.end());
        require(bounds.oldestId == *oldest && bounds.newestId == *newest,
                got + ", expected " + std::to_string(*oldest) + ".." + std::to_string(*newest));
    }
    if (!bounds.nextId) return false;
    const int64_t taken = integerOf(log, "ids_taken");
    require(*bounds.nextId > taken, got + ": at or below id " + std::to_string(taken) +
                                        ", which the log's id source already handed out");
    return true;
}

}  // namespace

std::string checkJournalBounds(const LiveContext& context, const CaseFiles& files) {
    auto connection = openConnection(context);
    std::vector<Object::Ptr> logs = objectsOf(arrayOf(files.expected, "logs"));
    size_t withNext = 0;
    for (const Object::Ptr& log : logs) {
        const core::TableRef diffgen{"", textOf(log, "diffgen")};
        std::optional<core::JournalBounds> bounds;
        try {
            bounds = connection->journalBounds(diffgen);
        } catch (const core::DialectError& failure) {
            throw CaseFailure("journal_bounds of '" + diffgen.name +
                              "': " + describeError(failure));
        }
        if (!bounds) return "journal_bounds is not implemented (accepted)";
        if (checkLog(*bounds, log)) ++withNext;
    }
    return std::to_string(logs.size()) + " logs' bounds, " + std::to_string(withNext) +
           " with a next id";
}

}  // namespace tapdiffgen::conformance

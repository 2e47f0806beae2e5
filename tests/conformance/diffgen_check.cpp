// check "diffgen": the page reads the engine's bookmarks rely on.
//
//   {"check": "diffgen", "diffgen": "tdg_conf_diffgen", "empty_diffgen": "tdg_conf_empty",
//    "max_id": 9,
//    "events": [[1, "alpha", "10", "i", "2024-01-02T03:04:05+00:00"], ...],   every row
//    "pages": [{"name": "limit at page end", "after": 0, "up_to": null, "limit": 5,
//               "tables": ["alpha"], "ids": [1, 3, 4, 6, 8], "range_row_count": 7}, ...]}
//
// up_to null means no upper bound. range_row_count may also be answered with -1 ("cannot
// tell"); any other value must be exact, since the engine trusts it to call a range gap-free;
// an empty page's is not read (the contract leaves it open). Whatever a page lists, it holds at
// most limit events, and a shorter page must hold every event of its tables in (after, up_to]
// that "events" lists, since the engine then moves its cursor to up_to. With no writer running,
// check_horizon (when the plugin has it) must call every page's mark final, an empty page's too,
// within kHorizonSeconds (a plugin may answer pending with a successor mark first). Marks beside
// a running writer are the horizon check's (horizon_check.cpp).
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "case_result.hpp"
#include "cell_text.hpp"
#include "expected_json.hpp"
#include "horizon_marks.hpp"
#include "live_cases.hpp"
#include "live_connection.hpp"
#include "row_collector.hpp"

namespace tapdiffgen::conformance {
namespace {

using Poco::JSON::Object;

// The events of `tables` in (after, upTo] that the case lists, which a short page must hold.
std::vector<int64_t> eventsInRange(const std::map<int64_t, RowText>& events,
                                   const std::vector<std::string>& tables, int64_t after,
                                   int64_t upTo) {
    std::set<std::string> wanted;
    for (const std::string& table : tables) wanted.insert("\"" + table + "\"");
    std::vector<int64_t> ids;
    for (const auto& [id, row] : events) {
        if (id > after && id <= upTo && wanted.count(row[1]) > 0) ids.push_back(id);
    }
    return ids;
}

RowText eventText(const TdgEvent& event) {
    std::string tableId = event.table_id_is_null != 0 || event.table_id == nullptr
                              ? "null"
                              : "\"" + std::string(event.table_id, event.table_id_size) + "\"";
    return {
        std::to_string(event.id),
        "\"" + std::string(event.table_name != nullptr ? event.table_name : "(NULL)") + "\"",
        tableId, "\"" + (event.op != 0 ? std::string(1, event.op) : std::string()) + "\"",
        event.ts_created != nullptr ? "\"" + withoutZeroFraction(event.ts_created) + "\"" : "null"};
}

std::map<int64_t, RowText> expectedEvents(const Poco::JSON::Array::Ptr& events) {
    std::map<int64_t, RowText> byId;
    for (size_t i = 0; i < events->size(); ++i) {
        Poco::JSON::Array::Ptr event = events->getArray(static_cast<unsigned>(i));
        require(!event.isNull() && event->size() == 5,
                "expected.json: each event is [id, table, table_id, op, ts_created]");
        int64_t id = event->get(0).convert<int64_t>();
        byId[id] = {std::to_string(id), "\"" + event->get(1).toString() + "\"",
                    event->isNull(2) ? "null" : "\"" + event->get(2).toString() + "\"",
                    "\"" + event->get(3).toString() + "\"",
                    "\"" + withoutZeroFraction(event->get(4).toString()) + "\""};
    }
    return byId;
}

PageMark checkPage(core::DialectConnection& connection, const core::TableRef& diffgen,
                   const Object::Ptr& page, const std::map<int64_t, RowText>& events) {
    const std::string name = "page '" + textOf(page, "name") + "'";
    int64_t after = integerOf(page, "after");
    // Poco reports an absent key as null too.
    int64_t upTo = page->isNull("up_to") ? INT64_MAX : integerOf(page, "up_to");
    std::vector<std::string> tables = stringsOf(arrayOf(page, "tables"));
    const int64_t limit = integerOf(page, "limit");
    core::EventPage read = connection.readDiffgenPage(diffgen, after, upTo, limit, tables);
    require(static_cast<int64_t>(read.size()) <= limit, name + ": " + std::to_string(read.size()) +
                                                            " events, more than the limit " +
                                                            std::to_string(limit));
    std::vector<std::string> ids;
    int64_t previous = after;
    for (const TdgEvent& event : read) {
        require(event.id > previous, name + ": ids not ascending or not after " +
                                         std::to_string(after) + " at id " +
                                         std::to_string(event.id));
        previous = event.id;
        ids.push_back(std::to_string(event.id));
        auto known = events.find(event.id);
        require(known != events.end(), name + ": unknown event id " + std::to_string(event.id));
        require(eventText(event) == known->second, name + ": event " +
                                                       rowDisplay(eventText(event)) +
                                                       ", expected " + rowDisplay(known->second));
    }
    if (static_cast<int64_t>(read.size()) < limit) {
        for (int64_t id : eventsInRange(events, tables, after, upTo)) {
            require(std::find(ids.begin(), ids.end(), std::to_string(id)) != ids.end(),
                    name + ": a page shorter than its limit leaves out event " +
                        std::to_string(id) + ", which the engine would then skip for good");
        }
    }
    std::vector<std::string> expectedIds = stringsOf(arrayOf(page, "ids"));
    require(ids == expectedIds,
            name + ": ids " + rowDisplay(ids) + ", expected " + rowDisplay(expectedIds));
    if (!read.empty() && page->has("range_row_count") && read.rangeRowCount() != -1) {
        int64_t count = integerOf(page, "range_row_count");
        require(read.rangeRowCount() == count,
                name + ": range_row_count " + std::to_string(read.rangeRowCount()) + ", expected " +
                    std::to_string(count) + " (or -1)");
    }
    return {name, read.mark()};
}

}  // namespace

std::string checkDiffgen(const LiveContext& context, const CaseFiles& files) {
    const Object::Ptr& expected = files.expected;
    core::TableRef diffgen{"", textOf(expected, "diffgen")};
    auto connection = openConnection(context);
    std::string stage = "max_diffgen_id";
    try {
        std::optional<int64_t> maxId = connection->maxDiffgenId(diffgen);
        require(maxId == integerOf(expected, "max_id"),
                "max_diffgen_id is " + (maxId ? std::to_string(*maxId) : "empty") + ", expected " +
                    std::to_string(integerOf(expected, "max_id")));
        if (expected->has("empty_diffgen")) {
            core::TableRef empty{"", textOf(expected, "empty_diffgen")};
            stage = "max_diffgen_id of the empty log";
            std::optional<int64_t> none = connection->maxDiffgenId(empty);
            require(!none, "max_diffgen_id of an empty log is " + std::to_string(none.value_or(0)) +
                               ", expected is_empty");
            stage = "read_diffgen_page of the empty log";
            require(connection->readDiffgenPage(empty, 0, INT64_MAX, 10, {"alpha"}).empty(),
                    "read_diffgen_page of an empty log returned events");
        }
        std::map<int64_t, RowText> events = expectedEvents(arrayOf(expected, "events"));
        std::vector<Object::Ptr> pages = objectsOf(arrayOf(expected, "pages"));
        std::vector<PageMark> marks;
        for (const Object::Ptr& page : pages) {
            stage = "read_diffgen_page '" + textOf(page, "name") + "'";
            marks.push_back(checkPage(*connection, diffgen, page, events));
        }
        stage = "check_horizon";
        std::string horizon = checkMarksFinal(*connection, std::move(marks));
        return std::to_string(pages.size()) + " pages, max id " +
               std::to_string(integerOf(expected, "max_id")) + ", " + horizon;
    } catch (const core::DialectError& failure) {
        throw CaseFailure(stage + ": " + describeError(failure));
    }
}

}  // namespace tapdiffgen::conformance

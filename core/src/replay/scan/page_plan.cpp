#include "replay/scan/page_plan.hpp"

#include <algorithm>

#include "util/log.hpp"

namespace tapdiffgen::core {
namespace {

// The op of an event a later event of the same row replaced.
constexpr char kSuperseded = 0;

std::string describeOp(char op) {
    if (op == 0) return "NULL/empty";
    return std::string("'") + op + "'";
}

}  // namespace

void PageStreams::add(const std::string& journalName, StreamKeyRule rule) {
    byJournalName_[journalName] = rules_.size();
    rules_.push_back(rule);
}

std::optional<size_t> PageStreams::streamOf(std::string_view journalName) const {
    const auto found = byJournalName_.find(journalName);
    if (found == byJournalName_.end()) return std::nullopt;
    return found->second;
}

void StreamPlan::indexEvents() {
    eventIndex_ = KeyIndex();
    eventIndex_.reserve(events.size());
    auto keyAt = [this](size_t i) { return std::string_view(events[i].key.canonical()); };
    for (size_t i = 0; i < events.size(); ++i) {
        eventIndex_.assign(events[i].key.canonical(), i, keyAt);
    }
}

// Each stream's events are kept in page order, with an index of where each row's latest one
// is: a later event of the same row marks the earlier one superseded. What is left is the
// latest event per row, already in log order.
PagePlan::PagePlan(const EventPage& page, const PageStreams& streams, const Options& options)
    : plans_(streams.size()), stops_(streams.size()) {
    std::vector<std::vector<DrivingEvent>> events(streams.size());
    std::vector<KeyIndex> latest(streams.size());
    for (size_t stream = 0; stream < streams.size(); ++stream) {
        if (!options.readFor.contains(stream)) continue;
        events[stream].reserve(page.size() / streams.size() + 1);
        latest[stream].reserve(page.size() / streams.size() + 1);
    }
    for (const TdgEvent& event : page) {
        const auto found =
            streams.streamOf(std::string_view(event.table_name != nullptr ? event.table_name : ""));
        if (!found || !options.readFor.contains(*found)) continue;
        const size_t stream = *found;
        if (stops_[stream]) continue;
        if (options.late && std::binary_search(options.late->seenIds.get().begin(),
                                               options.late->seenIds.get().end(), event.id)) {
            continue;
        }
        ++considered_;
        std::optional<RowKey> key = keyOf(event, streams.rule(stream), stream, options);
        if (!key) continue;
        std::vector<DrivingEvent>& kept = events[stream];
        kept.push_back(DrivingEvent{event.id, event.op, std::move(*key),
                                    event.ts_created != nullptr ? event.ts_created : ""});
        const size_t superseded = latest[stream].assign(
            kept.back().key.canonical(), kept.size() - 1,
            [&kept](size_t i) { return std::string_view(kept[i].key.canonical()); });
        if (superseded != KeyIndex::npos) kept[superseded].op = kSuperseded;
    }
    for (size_t stream = 0; stream < streams.size(); ++stream) {
        keepLatest(events[stream], streams.rule(stream).tombstonesOnly, plans_[stream]);
    }
}

std::optional<RowKey> PagePlan::keyOf(const TdgEvent& event, const StreamKeyRule& rule,
                                      size_t stream, const Options& options) {
    auto reject = [&](const std::string& why) {
        std::string message = "diffgen id " + std::to_string(event.id) + " (table '" +
                              event.table_name + "'): " + why;
        if (!options.skipBadEvents) throw BadEventError(event.id, message);
        log::warning(message + "; skipped because on_bad_event is 'skip'");
        ++skipped_;
    };
    if (event.op != TDG_OP_INSERT && event.op != TDG_OP_UPDATE && event.op != TDG_OP_DELETE) {
        reject("unknown op " + describeOp(event.op) + " (expected 'i', 'u' or 'd')");
        return std::nullopt;
    }
    if (event.table_id_is_null != 0 || event.table_id == nullptr) {
        reject("table_id is NULL");
        return std::nullopt;
    }
    std::string_view rawKey(event.table_id, static_cast<size_t>(event.table_id_size));
    KeyReadFailure failure;
    std::optional<RowKey> key = parseTableId(rawKey, *rule.key, failure);
    if (key) return key;
    // A key that cannot be read is never taken for a deleted row: its stream stops before it,
    // the others go on.
    std::string message = "stream '" + rule.streamName + "': diffgen id " +
                          std::to_string(event.id) + " " + failure.describe(rawKey, *rule.key);
    if (failure.column >= 0 && failure.fault == KeyTextFault::Unreadable &&
        rule.key->columns[static_cast<size_t>(failure.column)].kind == TDG_KIND_BYTES) {
        // Which bytes a raw text stood for cannot be told: the trigger must be upgraded.
        message +=
            "; a trigger of an older version journals binary keys raw: run the shipped "
            "diffgen SQL file again, or attach the table again (diffgen_attach('" +
            std::string(event.table_name) + "'))";
    }
    if (options.skipBadEvents) {
        log::warning(message + "; skipped because on_bad_event is 'skip'");
        ++skipped_;
    } else {
        stops_[stream] = StreamStop{event.id, std::move(message)};
    }
    return std::nullopt;
}

void PagePlan::keepLatest(std::vector<DrivingEvent>& events, bool tombstonesOnly,
                          StreamPlan& plan) {
    auto kept = [tombstonesOnly](const DrivingEvent& event) {
        return event.op != kSuperseded && (!tombstonesOnly || event.op == TDG_OP_DELETE);
    };
    // Sized first: the list is then made once, never copied to grow.
    plan.events.reserve(static_cast<size_t>(std::count_if(events.begin(), events.end(), kept)));
    for (DrivingEvent& event : events) {
        if (kept(event)) plan.events.push_back(std::move(event));
    }
    // The moved-from events hold nothing more worth keeping until the plan is done.
    std::vector<DrivingEvent>().swap(events);
    // Output in log order, which targets that apply records in order appreciate. Pages come
    // in id order, so this sorts only a page that did not.
    auto byId = [](const DrivingEvent& a, const DrivingEvent& b) { return a.id < b.id; };
    if (!std::is_sorted(plan.events.begin(), plan.events.end(), byId)) {
        std::sort(plan.events.begin(), plan.events.end(), byId);
    }
    plan.indexEvents();
}

}  // namespace tapdiffgen::core

#include "replay/page_plan.hpp"

#include <algorithm>

#include "replay/row_key.hpp"
#include "util/log.hpp"

namespace tapdiffgen::core {
namespace {

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

PagePlan::PagePlan(const EventPage& page, const PageStreams& streams, const Options& options)
    : plans_(streams.size()) {
    const bool skipBadEvents = options.skipBadEvents;
    // Per stream: canonical key → (position in page, event), so that the LAST event wins.
    std::vector<std::unordered_map<std::string, DrivingEvent>> latest(streams.size());
    for (auto& events : latest) events.reserve(page.size() / streams.size() + 1);
    for (const TdgEvent& event : page) {
        const auto found =
            streams.streamOf(std::string_view(event.table_name != nullptr ? event.table_name : ""));
        if (!found || !options.readFor[*found]) continue;
        const size_t stream = *found;
        if (options.late && std::binary_search(options.late->seenIds.get().begin(),
                                               options.late->seenIds.get().end(), event.id)) {
            continue;
        }
        ++considered_;
        auto reject = [&](const std::string& why) {
            std::string message = "diffgen id " + std::to_string(event.id) + " (table '" +
                                  event.table_name + "'): " + why;
            if (!skipBadEvents) throw BadEventError(event.id, message);
            log::warning(message + "; skipped because on_bad_event is 'skip'");
            ++skipped_;
        };
        if (event.op != TDG_OP_INSERT && event.op != TDG_OP_UPDATE && event.op != TDG_OP_DELETE) {
            reject("unknown op " + describeOp(event.op) + " (expected 'i', 'u' or 'd')");
            continue;
        }
        if (event.table_id_is_null != 0 || event.table_id == nullptr) {
            reject("table_id is NULL");
            continue;
        }
        std::string_view rawKey(event.table_id, static_cast<size_t>(event.table_id_size));
        std::string why;
        auto key = parseTableId(rawKey, *streams.rule(stream).key, why);
        if (!key) {
            reject("table_id '" + std::string(rawKey) + "' " + why);
            continue;
        }
        DrivingEvent& driving = latest[stream][key->canonical];
        driving.id = event.id;
        driving.op = event.op;
        if (driving.key.empty()) {
            driving.key = std::move(key->canonical);
            driving.keyParts = std::move(key->parts);
        }
        driving.tsCreated = event.ts_created != nullptr ? event.ts_created : "";
    }
    for (size_t stream = 0; stream < streams.size(); ++stream) {
        StreamPlan& plan = plans_[stream];
        const bool tombstonesOnly = streams.rule(stream).tombstonesOnly;
        for (auto& [key, event] : latest[stream]) {
            if (event.op == TDG_OP_DELETE && !(options.late && !tombstonesOnly)) {
                plan.tombstones.push_back(std::move(event));
            } else if (!tombstonesOnly) {
                plan.upserts.push_back(std::move(event));
            }
        }
        // Output in log order, which targets that apply records in order appreciate.
        auto byId = [](const DrivingEvent& a, const DrivingEvent& b) { return a.id < b.id; };
        std::sort(plan.tombstones.begin(), plan.tombstones.end(), byId);
        if (!plan.upserts.empty()) {
            std::sort(plan.upserts.begin(), plan.upserts.end(), byId);
            plan.upsertIndex.reserve(plan.upserts.size());
            for (size_t i = 0; i < plan.upserts.size(); ++i) {
                plan.upsertIndex.emplace(plan.upserts[i].key, i);
            }
        }
    }
}

size_t PagePlan::streamsWithEvents() const {
    return static_cast<size_t>(std::count_if(
        plans_.begin(), plans_.end(),
        [](const StreamPlan& plan) { return !plan.upserts.empty() || !plan.tombstones.empty(); }));
}

}  // namespace tapdiffgen::core

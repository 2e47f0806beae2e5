#include "replay/scan/horizon_tracker.hpp"

#include <algorithm>

#include "util/log.hpp"

namespace tapdiffgen::core {
namespace {

bool hasMark(const TdgHorizonMark& mark) {
    return std::any_of(std::begin(mark.words), std::end(mark.words),
                       [](int64_t word) { return word != 0; });
}

}  // namespace

HorizonTracker::HorizonTracker(DialectConnection& connection, double settleSeconds,
                               int64_t finalThrough)
    : connection_(connection), settle_(settleSeconds), finalThrough_(finalThrough) {}

void HorizonTracker::noteFinal(int64_t from, int64_t to) {
    // Only a range that touches what is already final extends it: an island proves nothing
    // about the ids below it.
    if (from <= finalThrough_ && to > finalThrough_) finalThrough_ = to;
}

bool HorizonTracker::joinsPending(int64_t from, const StreamSet& streams) const {
    return !pending_.empty() && pending_.back().to == from && pending_.back().streams == streams;
}

void HorizonTracker::addPending(PendingRange range, bool final) {
    const bool joins = joinsPending(range.from, range.streams);
    if (final && !joins) return;
    if (joins) {
        PendingRange& newest = pending_.back();
        newest.to = range.to;
        if (final) return;
        auto& parts = newest.gappedParts;
        if (!parts.empty() && parts.back().second == range.from) {
            parts.back().second = range.to;
        } else {
            parts.emplace_back(range.from, range.to);
        }
        heldIds_ += range.seenIds.size();
        newest.seenIds.insert(newest.seenIds.end(), range.seenIds.begin(), range.seenIds.end());
        newest.mark = range.mark;
        newest.readAt = range.readAt;
        return;
    }
    if (range.gappedParts.empty()) range.gappedParts.emplace_back(range.from, range.to);
    heldIds_ += range.seenIds.size();
    log::debug("diffgen ids (" + std::to_string(range.from) + ", " + std::to_string(range.to) +
               "] have gaps that may still be filled by running transactions; holding the "
               "bookmark at " +
               std::to_string(range.from));
    pending_.push_back(std::move(range));
}

bool HorizonTracker::isFinal(PendingRange& range) {
    ++checks_;
    if (!driverCannotTell_ && hasMark(range.mark)) {
        std::optional<bool> answer = connection_.checkHorizon(range.mark);
        if (answer) return *answer;
        driverCannotTell_ = true;
        log::warning("the " + connection_.plugin().dialect() +
                     " driver cannot tell whether transactions still hold diffgen ids; "
                     "waiting horizon_settle_seconds before treating gaps as final");
    }
    return std::chrono::steady_clock::now() - range.readAt >= settle_;
}

std::vector<PendingRange> HorizonTracker::takeFinal() {
    std::vector<PendingRange> done;
    while (!pending_.empty() && isFinal(pending_.front())) {
        done.push_back(popOldest());
        const PendingRange& range = done.back();
        log::debug("diffgen ids (" + std::to_string(range.from) + ", " + std::to_string(range.to) +
                   "] are final after " + std::to_string(checks_) +
                   " horizon checks; reading them again");
    }
    return done;
}

PendingRange HorizonTracker::takeOldest() {
    PendingRange range = popOldest();
    log::debug("diffgen ids (" + std::to_string(range.from) + ", " + std::to_string(range.to) +
               "] have no gap left");
    return range;
}

void HorizonTracker::narrowOldest(std::vector<std::pair<int64_t, int64_t>> parts) {
    if (parts.empty() || pending_.empty()) return;
    pending_.front().gappedParts = std::move(parts);
}

PendingRange HorizonTracker::popOldest() {
    PendingRange range = std::move(pending_.front());
    pending_.pop_front();
    heldIds_ -= range.seenIds.size();
    if (range.from <= finalThrough_ && range.to > finalThrough_) finalThrough_ = range.to;
    return range;
}

std::optional<int64_t> HorizonTracker::holdFor(size_t stream) const {
    for (const PendingRange& range : pending_) {
        if (range.streams.contains(stream)) return range.from;
    }
    return std::nullopt;
}

}  // namespace tapdiffgen::core

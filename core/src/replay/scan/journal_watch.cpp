#include "replay/scan/journal_watch.hpp"

#include "catalog/journal_checks.hpp"
#include "util/log.hpp"

namespace tapdiffgen::core {
namespace {

// The run stops: what it emitted is covered by its last STATE, and the next run's start-up
// checks find the same loss.
[[noreturn]] void stopFor(const LostCoverage& lost, const StreamState& stream) {
    throw JournalError(lost.describe(stream.name) + " while the tap ran; " +
                       snapshotAgainHint(stream.tableName));
}

}  // namespace

std::vector<size_t> JournalWatch::checkAfterGap(const std::vector<const StreamState*>& streams) {
    if (cannotTell_) return {};
    return check(streams);
}

std::vector<size_t> JournalWatch::checkAtHead(const std::vector<const StreamState*>& streams,
                                              std::chrono::duration<double> interval) {
    const auto now = std::chrono::steady_clock::now();
    if (cannotTell_ || now - lastAtHead_ < interval) return {};
    lastAtHead_ = now;
    return check(streams);
}

std::vector<size_t> JournalWatch::check(const std::vector<const StreamState*>& streams) {
    const std::optional<JournalBounds> bounds = connection_.journalBounds(diffgen_);
    if (!bounds) {
        cannotTell_ = true;
        return {};
    }
    observer_.journalHeadSeen(bounds->newestId);
    std::vector<size_t> again;
    for (const StreamState* stream : streams) {
        std::optional<LostCoverage> lost = bounds->lostAfter(stream->cursor);
        if (!lost) continue;
        if (stream->startFrom != StartFrom::WhenNeeded) stopFor(*lost, *stream);
        log::warning(lost->describe(stream->name) +
                     " while the tap ran; start_from is when_needed, so the table is "
                     "snapshotted again in this run");
        again.push_back(stream->index);
    }
    return again;
}

}  // namespace tapdiffgen::core

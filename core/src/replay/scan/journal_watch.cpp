#include "replay/scan/journal_watch.hpp"

#include "catalog/journal_checks.hpp"

namespace tapdiffgen::core {
namespace {

// The run stops: what it emitted is covered by its last STATE, and the next run's start-up
// checks find the same loss, and snapshot the stream again where start_from says when_needed.
[[noreturn]] void stopFor(const LostCoverage& lost, const StreamRuntime& stream) {
    const StreamDefinition& definition = *stream.definition;
    const std::string next = definition.startFrom == StartFrom::WhenNeeded
                                 ? "the next run snapshots it again (start_from is when_needed)"
                                 : snapshotAgainHint(definition.tableName);
    throw JournalError(lost.describe(definition.name) + " while the tap ran; " + next);
}

}  // namespace

void JournalWatch::checkAfterGap(const std::vector<const StreamRuntime*>& streams) {
    if (!cannotTell_) check(streams);
}

void JournalWatch::checkAtHead(const std::vector<const StreamRuntime*>& streams,
                               std::chrono::duration<double> interval) {
    const auto now = std::chrono::steady_clock::now();
    if (cannotTell_ || now - lastAtHead_ < interval) return;
    lastAtHead_ = now;
    check(streams);
}

void JournalWatch::check(const std::vector<const StreamRuntime*>& streams) {
    const std::optional<JournalBounds> bounds = connection_.journalBounds(diffgen_);
    if (!bounds) {
        cannotTell_ = true;
        return;
    }
    for (const StreamRuntime* stream : streams) {
        if (std::optional<LostCoverage> lost = bounds->lostAfter(stream->cursor)) {
            stopFor(*lost, *stream);
        }
    }
}

}  // namespace tapdiffgen::core

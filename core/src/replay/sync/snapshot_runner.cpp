#include "replay/sync/snapshot_runner.hpp"

#include "util/log.hpp"

namespace tapdiffgen::core {
namespace {

// Heads are asked about no more often than this: each question is a statement.
constexpr std::chrono::milliseconds kHeadCheckInterval{200};

}  // namespace

SnapshotRunner::SnapshotRunner(RunScope& run, DialectConnection& connection)
    : run_(run),
      connection_(connection),
      reader_(connection, run.writer, run.outputs, run.clock, run.observer,
              run.options.keysPerFetch) {
    takeUpPositions();
}

bool SnapshotRunner::readingChunks() const { return !snapshots_.empty(); }

bool SnapshotRunner::busy() {
    takeUpPositions();
    if (readingChunks()) return true;
    for (const StreamRuntime& stream : run_.streams) {
        if (stream.awaitsSnapshot) return true;
    }
    return false;
}

bool SnapshotRunner::step() {
    advanceHeads();
    takeUpPositions();
    if (run_.clock.shouldStop()) return false;
    TableSnapshot* snapshot = nextSnapshot();
    if (snapshot == nullptr) return false;
    if (snapshot->readChunk()) snapshots_.erase(snapshot->stream().index);
    run_.checkpointer.commit();
    return true;
}

void SnapshotRunner::advanceHeads() {
    for (StreamRuntime& stream : run_.streams) {
        if (stream.awaitsSnapshot && heads_.count(stream.index) == 0) startHeadWait(stream);
    }
    const auto now = std::chrono::steady_clock::now();
    if (heads_.empty() || now - lastHeadCheck_ < kHeadCheckInterval) return;
    lastHeadCheck_ = now;
    for (auto it = heads_.begin(); it != heads_.end();) {
        StreamRuntime& stream = run_.streams[it->first];
        const HeadState state = headState(it->second);
        if (state == HeadState::Waiting) {
            ++it;
            continue;
        }
        if (state == HeadState::Final) {
            join(stream, it->second.headId);
        } else {
            giveUpHead(stream);
        }
        it = heads_.erase(it);
    }
}

// The head and the mark of a read of the log at it: the mark covers every transaction that
// was running then, so once it is final no id <= head can appear any more.
void SnapshotRunner::startHeadWait(StreamRuntime& stream) {
    const SyncOptions& options = run_.options;
    HeadWait wait;
    const std::optional<int64_t> head = connection_.maxDiffgenId(options.diffgen);
    if (head) run_.observer.journalHeadSeen(*head);
    wait.headId = head.value_or(0);
    EventPage probe = connection_.readDiffgenPage(options.diffgen, wait.headId, wait.headId, 1,
                                                  {stream.definition->journalName});
    wait.tracker = std::make_unique<HorizonTracker>(connection_, options.horizonSettleSeconds, 0);
    PendingRange range;
    range.to = wait.headId;
    range.mark = probe.mark();
    range.readAt = std::chrono::steady_clock::now();
    wait.tracker->addPending(range);
    wait.deadline = range.readAt + std::chrono::seconds(options.horizonWaitSeconds);
    heads_[stream.index] = std::move(wait);
}

SnapshotRunner::HeadState SnapshotRunner::headState(HeadWait& wait) {
    if (!wait.tracker->takeFinal().empty()) return HeadState::Final;
    if (std::chrono::steady_clock::now() < wait.deadline) return HeadState::Waiting;
    return HeadState::Expired;
}

// Following, the stream waits for a newer head; a run that ends leaves it to the next run.
void SnapshotRunner::giveUpHead(StreamRuntime& stream) {
    const std::string running = "stream '" + stream.definition->name +
                                "': transactions that may still journal changes were running "
                                "for more than horizon_wait_seconds; ";
    if (run_.options.follow) {
        log::warning(running + "the snapshot waits for a newer head");
        return;
    }
    log::warning(running + "the snapshot is postponed to the next run");
    stream.awaitsSnapshot = false;
}

void SnapshotRunner::join(StreamRuntime& stream, int64_t headId) {
    stream.awaitsSnapshot = false;
    stream.replaying = true;
    stream.cursor = headId;
    run_.state.setBookmark(stream.definition->name, headId);
    run_.state.setSnapshot(stream.definition->name, SnapshotPosition{headId, {}, 0});
}

void SnapshotRunner::takeUpPositions() {
    for (StreamRuntime& stream : run_.streams) {
        if (!stream.replaying) continue;
        const std::optional<SnapshotPosition> position =
            run_.state.snapshot(stream.definition->name);
        auto running = snapshots_.find(stream.index);
        if (!position) {
            if (running != snapshots_.end()) snapshots_.erase(running);
            continue;
        }
        if (running != snapshots_.end() && running->second->sinceId() == position->sinceId) {
            continue;
        }
        snapshots_[stream.index] =
            std::make_unique<TableSnapshot>(run_, reader_, connection_, stream, *position);
    }
}

TableSnapshot* SnapshotRunner::nextSnapshot() {
    if (snapshots_.empty()) return nullptr;
    auto next = snapshots_.lower_bound(nextTurn_);
    if (next == snapshots_.end()) next = snapshots_.begin();
    nextTurn_ = next->first + 1;
    return next->second.get();
}

}  // namespace tapdiffgen::core

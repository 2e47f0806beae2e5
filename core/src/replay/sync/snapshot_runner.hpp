// The snapshots of a run, taken a chunk at a time between pages of the log, on the run's own
// connection and thread (SyncCoordinator alternates: a chunk, a page, a chunk, ...).
//
// A stream with no bookmark whose start_from asks for a snapshot first waits for a head: the
// log's highest id M, once no transaction that could still commit an id <= M is running. From
// then on it replays the log after M like any stream, and its table is read chunk by chunk
// (replay/sync/table_snapshot.hpp). A stream already replaying is snapshotted again from where
// it stands (a signal in the log, replay/scan/snapshot_signal.hpp), with no wait: everything up
// to its cursor has been replayed.
//
// Why this order keeps the replica right. Every record, a chunk's row or a replayed change, is
// the row as the tap read it from the table at one moment, or a tombstone for a key the tap
// found gone at one moment; records are written in the order they were read, on one thread.
// So a target that applies them in order holds, for every key, what the tap saw last:
//   - A change to a row not scanned yet may be emitted before the row's chunk: the chunk then
//     reads the row again, as it is then, which is the same or newer.
//   - A tombstone is never undone by an older chunk: a chunk read after the tombstone does not
//     find the row (or finds it re-inserted, which is then the truth); a chunk read before it
//     was written before it.
//   - Nothing is missed: a change committed before the head's wait ended has an id <= M and
//     was visible to every chunk, which read after the wait; a change committed later has an
//     id > M and is replayed, after the chunk that may have read the row before it.
// Debezium's incremental snapshots need watermarks and a buffer of the chunk because they emit
// the log's old images; this tap reads every row fresh, so the read order is enough.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <optional>

#include "plugin/dialect_connection.hpp"
#include "replay/scan/horizon_tracker.hpp"
#include "replay/sync/run_scope.hpp"
#include "replay/sync/table_snapshot.hpp"

namespace tapdiffgen::core {

class SnapshotRunner {
public:
    /// Takes up the snapshots the run's state holds and the streams awaiting one.
    SnapshotRunner(RunScope& run, DialectConnection& connection);

    /// One turn: looks whether a head a stream waits for is final, then reads the next chunk
    /// of one snapshot (in turn) and has the STATE written. Returns whether a chunk was read.
    bool step();
    /// Whether a snapshot has chunks left to read.
    bool readingChunks() const;
    /// Whether anything is left to do: chunks (a snapshot the replay has just asked for
    /// included), or heads still awaited.
    bool busy();

private:
    // The head a stream without a bookmark waits for before it joins the replay.
    struct HeadWait {
        int64_t headId = 0;
        std::unique_ptr<HorizonTracker> tracker;
        std::chrono::steady_clock::time_point deadline;
    };

    RunScope& run_;
    DialectConnection& connection_;
    TableReader reader_;
    std::map<size_t, HeadWait> heads_;
    std::map<size_t, std::unique_ptr<TableSnapshot>> snapshots_;
    size_t nextTurn_ = 0;
    std::chrono::steady_clock::time_point lastHeadCheck_{};

    enum class HeadState { Waiting, Final, Expired };

    void advanceHeads();
    void startHeadWait(StreamRuntime& stream);
    HeadState headState(HeadWait& wait);
    /// After horizon_wait_seconds: wait for a newer head, or (not following) for the next run.
    void giveUpHead(StreamRuntime& stream);
    void join(StreamRuntime& stream, int64_t headId);
    /// The snapshots the state holds now, made or remade (a new signal restarts one).
    void takeUpPositions();
    TableSnapshot* nextSnapshot();
};

}  // namespace tapdiffgen::core

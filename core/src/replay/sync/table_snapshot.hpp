// One stream's snapshot in progress: its table read in chunks in key order, each chunk's rows
// written as they arrive, and after each chunk the stream's STATE says where the snapshot
// stands (state/tap_state.hpp: the head id it replays from, the last key written, the rows so
// far). A run that stops anywhere, killed or cut off from its database, leaves a STATE that
// the next run (or the next connection of this one) resumes from: at most the chunk it was
// reading is written twice.
//
// The stream replays the log from the head id meanwhile, interleaved with the chunks on the
// same thread (replay/sync/snapshot_runner.hpp says why that order keeps the replica right).
//
// A chunk holds at most page_size rows and about kChunkBytes of them, sized from the rows read
// so far: wide rows make short chunks, so that a chunk's time (what the other streams wait for
// between two of their pages) and what a resume writes again stay small whatever the rows.
// A plugin that cannot read chunks (before ABI revision 5) reads the whole table in one scan,
// which starts from the first row again after an interruption.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "plugin/dialect_connection.hpp"
#include "replay/output/table_reader.hpp"
#include "replay/sync/chunk_key.hpp"
#include "replay/sync/run_scope.hpp"
#include "replay/sync/stream_runtime.hpp"

namespace tapdiffgen::core {

/// Rows of the next chunk: page_size at most, fewer when the rows read so far are wide.
class ChunkSizer {
public:
    static constexpr size_t kChunkBytes = 16u << 20;
    /// The first chunk, whose rows' size is not known yet.
    static constexpr int64_t kFirstChunkRows = 256;

    explicit ChunkSizer(int64_t maxRows) : maxRows_(std::max<int64_t>(1, maxRows)) {}
    int64_t nextRows() const;
    void noteChunk(int64_t rows, uint64_t bytes);

private:
    int64_t maxRows_;
    uint64_t rowsSeen_ = 0;
    uint64_t bytesSeen_ = 0;
};

class TableSnapshot {
public:
    /// The snapshot of `stream` from `position` (a fresh one, or one a STATE kept), its rows
    /// read by `reader`; `connection` estimates the table's size. Throws StateError when the
    /// position's key does not fit the stream's key.
    TableSnapshot(RunScope& run, TableReader& reader, DialectConnection& connection,
                  StreamRuntime& stream, const SnapshotPosition& position);

    /// Reads and writes the next chunk and records the position in the run's state (the
    /// caller writes the STATE); true once the table is done, its position then cleared.
    bool readChunk();
    int64_t sinceId() const { return sinceId_; }
    StreamRuntime& stream() const { return stream_; }

private:
    RunScope& run_;
    TableReader& reader_;
    StreamRuntime& stream_;
    int64_t sinceId_;
    ChunkKey afterKey_;
    ChunkSizer sizer_;
    // Rows done over every run of the snapshot, and the table's estimated rows.
    uint64_t rowsDone_;
    std::optional<uint64_t> estimate_;

    void recordPosition(bool done);
};

}  // namespace tapdiffgen::core

// Every read of a table's rows during a sync, for the emitter and the snapshots alike: they say
// what they want read and receive the rows, each checked first against the columns its stream
// describes (a row that does not fit means the table changed: table_change.hpp).
//
// Rows by key (the re-pull of a page): the keys are cut into chunks, one batched fetch each,
// every chunk of the page handed to the plugin at once (it may pipeline them). With other
// re-pull sessions, the chunks are shared out between them and this session
// (sessions/repull_shares.hpp): each renders its share's rows on its own thread into its spool,
// and the shares are written in order, so the output is what one session would have written; a
// share whose session failed is read again here. Before the rows are read, the tables are
// described again (SchemaWatch), so a record is written under the SCHEMA of its table as it is
// now; a read that finds its table changed after that stops, the tables are described again,
// and the keys not written yet are read again with the new columns.
//
// Rows in key order (a snapshot's chunk): at most so many after a key, or the whole table from
// a plugin that cannot read chunks; a chunk whose table changed is read again from the same
// key with the new columns.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "plugin/dialect_connection.hpp"
#include "replay/observe/run_observer.hpp"
#include "replay/output/schema_watch.hpp"
#include "replay/output/stream_channel.hpp"
#include "replay/scan/page_plan.hpp"
#include "replay/sessions/repull_session.hpp"
#include "singer/message_writer.hpp"
#include "singer/record_sink.hpp"

namespace tapdiffgen::core {

/// One stream's keys to read: those of a planned page's events.
struct KeyRead {
    size_t index;  // the stream's, in the run's stream list
    StreamChannel* stream;
    const StreamPlan* plan;
};

/// What a reader by key hands each row to: the row answering event `event` of read `read`,
/// to render into `sink`. Called on the thread of the session that read it, one chunk at a
/// time per thread. Returns the records written.
using KeyedRowSink = std::function<uint64_t(const KeyRead& read, size_t event, RecordSink& sink,
                                            const TdgCell* cells)>;

/// What came back for one KeyRead: which of its events' rows were found, and the records they
/// made.
struct KeysFound {
    std::vector<bool> found;
    uint64_t records = 0;
};

/// What a snapshot's chunk hands each row to, and each batch's last row (for its key).
struct ChunkRowSink {
    std::function<void(const TdgCell* cells)> row;
    std::function<void(const TdgCell* lastRow)> batchDone;
};

/// What a chunk read: its rows, about how many bytes they were, and whether it was the whole
/// table (a plugin that cannot read chunks).
struct ChunkRead {
    int64_t rows = 0;
    uint64_t bytes = 0;
    bool whole = false;
};

class TableReader {
public:
    /// Reads on `connection`, sharing re-pulls with `others`; describes tables again on it,
    /// writes SCHEMAs and the other sessions' rows to `writer`. All must outlive the reader.
    /// Re-pulls, shares and their retries are told to `observer`.
    TableReader(DialectConnection& connection, MessageWriter& writer, const StreamOutputs& outputs,
                RunClock& clock, RunObserver& observer, int64_t keysPerFetch,
                RepullSessions others = {});

    /// Reads the rows of every event of `reads` by key, each to `sink` (rendered into the
    /// writer or a spool); returns, per read, what was found.
    std::vector<KeysFound> readKeys(const std::vector<KeyRead>& reads, const KeyedRowSink& sink);

    /// Reads at most maxRows rows of `stream`'s table after `afterKey` (empty: from the first),
    /// in key order, each to `sink`; a plugin that cannot read chunks reads the whole table in
    /// batches of `wholeBatchRows`.
    ChunkRead readChunk(StreamChannel& stream, const std::vector<TdgCell>& afterKey,
                        int64_t maxRows, int64_t wholeBatchRows, const ChunkRowSink& sink);

private:
    // A chunk of one read's events, [begin, end), which of them the re-pull returned, and how
    // many records they made (counted here: the chunk may be rendered on another thread).
    struct Chunk {
        const KeyRead* read;
        size_t begin;
        size_t end;
        std::vector<bool> found;
        uint64_t records = 0;
    };
    // Chunks [begin, end) and the session that re-pulls them (null: this one).
    struct Share {
        size_t begin;
        size_t end;
        RepullSession* session;
        std::vector<FetchSpec> fetches;
        bool running = false;
        // Its rows went to the writer as they came (read on this session), or its spool was
        // written: what its chunks found is in the output.
        bool written = false;
    };

    DialectConnection& connection_;
    MessageWriter& writer_;
    SchemaWatch schemas_;
    RunObserver& observer_;
    int64_t keysPerFetch_;
    RepullSessions others_;
    // The largest mean size of a record's members in any share written so far, in bytes; 0
    // until a share has made records.
    size_t widestMeanRecord_ = 0;

    /// How many sessions a page of `pageKeys` keys is shared between (1: this one alone),
    /// once the sessions that failed are let go.
    size_t sessionsFor(size_t pageKeys);
    void noteRecords(size_t memberBytes, size_t records);
    // `sessions`: how many sessions this page is shared between (1: this one alone).
    std::vector<Chunk> cutChunks(const std::vector<KeyRead>& reads, size_t pageKeys,
                                 size_t sessions) const;
    std::vector<Share> shareOut(const std::vector<Chunk>& chunks, size_t sessions) const;
    /// Reads every chunk's rows that are not written yet, again after a change of a table of
    /// `touched` as often as that takes.
    void readChunks(std::vector<Chunk>& chunks, const std::vector<StreamChannel*>& touched,
                    size_t pageKeys, const KeyedRowSink& sink);
    /// One fetch per chunk of the share with keys not found yet, rendering into `into`.
    std::vector<FetchSpec> fetchesOf(std::vector<Chunk>& chunks, const Share& share,
                                     RecordSink& into, const KeyedRowSink& sink);
    void fetchShares(std::vector<Chunk>& chunks, std::vector<Share>& shares,
                     const KeyedRowSink& sink);
    /// Reads the share on this session, its rows written as they come.
    void readHere(std::vector<Chunk>& chunks, Share& share, const KeyedRowSink& sink);
    /// Tells the observer each stream's share of the page's keys, queries and time.
    void tellRepulls(const std::vector<Chunk>& chunks, double seconds);
    static void takeRow(RecordSink& into, Chunk& chunk, const TdgCell* cells,
                        const KeyedRowSink& sink);

    ChunkRead readChunkOnce(StreamChannel& stream, const std::vector<TdgCell>& afterKey,
                            int64_t maxRows, int64_t wholeBatchRows, const ChunkRowSink& sink);
};

}  // namespace tapdiffgen::core

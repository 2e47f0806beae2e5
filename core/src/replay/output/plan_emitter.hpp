// Turns a page's plans into RECORD messages: one batched re-pull per chunk of keys, every
// chunk of the page handed to the plugin at once (it may pipeline them). A row the re-pull
// returns is emitted as it is now, whatever the event (a delete included: the key may have
// shifted to another row in the same statement); a key it does not return is a row that is
// gone by now, and becomes a tombstone.
//
// With other re-pull sessions, the chunks are shared out between them and this session
// (repull_shares.hpp): each renders its share's rows on its own thread, and the shares are
// written in order, so the output is what one session would have written.
//
// Before the rows are read, the tables the page touches are described again (SchemaWatch), so a
// record is written under the SCHEMA of its table as it is now. A read that finds its table
// changed after that (table_change.hpp) stops; the tables are described again, and the rows not
// written yet are read again with the new columns.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "plugin/dialect_connection.hpp"
#include "replay/output/schema_watch.hpp"
#include "replay/scan/page_plan.hpp"
#include "replay/sessions/repull_session.hpp"
#include "replay/sync/run_ledger.hpp"
#include "replay/sync/stream_runtime.hpp"
#include "singer/message_writer.hpp"

namespace tapdiffgen::core {

class PlanEmitter {
public:
    /// `others`: the sessions besides `connection` to share re-pulls with; they must outlive
    /// the emitter, as `schemas` must, which describes on `connection`. Records, re-pull
    /// queries and shares are counted in `ledger`.
    PlanEmitter(DialectConnection& connection, MessageWriter& writer, RunLedger& ledger,
                SchemaWatch& schemas, int64_t keysPerFetch, RepullSessions others = {})
        : connection_(connection),
          writer_(writer),
          ledger_(ledger),
          schemas_(schemas),
          keysPerFetch_(keysPerFetch),
          others_(std::move(others)) {}

    /// One stream's plan for a page.
    struct Part {
        StreamRuntime* stream;
        const StreamPlan* plan;
    };

    /// Emits everything the plans ask for; timeExtracted goes on every record.
    void emit(const std::vector<Part>& parts, const std::string& timeExtracted);
    void emit(StreamRuntime& stream, const StreamPlan& plan, const std::string& timeExtracted) {
        emit({Part{&stream, &plan}}, timeExtracted);
    }

private:
    // A chunk of one stream's upserts, [begin, end), which of them the re-pull returned, and
    // how many records they made (counted here: the chunk may be rendered on another thread).
    struct Chunk {
        StreamRuntime* stream;
        const StreamPlan* plan;
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
    RunLedger& ledger_;
    SchemaWatch& schemas_;
    int64_t keysPerFetch_;
    RepullSessions others_;
    // The largest mean size of a record's members in any share written so far, in bytes; 0
    // until a share has made records.
    size_t widestMeanRecord_ = 0;

    /// How many sessions a page of `pageKeys` keys is shared between (1: this one alone).
    size_t sessionsFor(size_t pageKeys) const;
    void noteRecords(size_t memberBytes, size_t records);

    // `sessions`: how many sessions this page is shared between (1: this one alone).
    std::vector<Chunk> cutChunks(const std::vector<Part>& parts, size_t pageKeys,
                                 size_t sessions) const;
    std::vector<Share> shareOut(const std::vector<Chunk>& chunks, size_t sessions) const;
    /// Reads every chunk's rows that are not written yet, again after a change of a table of
    /// `touched` (the page's streams) as often as that takes.
    void readChunks(std::vector<Chunk>& chunks, const std::vector<StreamRuntime*>& touched,
                    size_t pageKeys, const std::string& timeExtracted);
    /// One fetch per chunk of the share with keys not found yet, rendering into `sink`.
    std::vector<FetchSpec> fetchesOf(std::vector<Chunk>& chunks, const Share& share,
                                     RecordSink& sink, const std::string& timeExtracted);
    void fetchShares(std::vector<Chunk>& chunks, std::vector<Share>& shares,
                     const std::string& timeExtracted);
    /// Reads the share on this session, its rows written as they come.
    void readHere(std::vector<Chunk>& chunks, Share& share, const std::string& timeExtracted);
    void emitGone(StreamRuntime& stream, const DrivingEvent& event,
                  const std::string& timeExtracted);
    void emitTombstone(StreamRuntime& stream, const DrivingEvent& event, std::string_view deletedAt,
                       const std::string& timeExtracted);
    static void emitRow(RecordSink& sink, Chunk& chunk, const TdgCell* cells,
                        const std::string& timeExtracted);
};

}  // namespace tapdiffgen::core

// Turns a page's plans into RECORD messages: one batched re-pull per chunk of keys, every
// chunk of the page handed to the plugin at once (it may pipeline them). A row the re-pull
// returns is emitted as it is now, whatever the event (a delete included: the key may have
// shifted to another row in the same statement); a key it does not return is a row that is
// gone by now, and becomes a tombstone.
//
// With other re-pull sessions, the chunks are shared out between them and this session
// (repull_shares.hpp): each renders its share's rows on its own thread, and the shares are
// written in order, so the output is what one session would have written.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "plugin/dialect_connection.hpp"
#include "replay/scan/page_plan.hpp"
#include "replay/sessions/repull_session.hpp"
#include "replay/sync/run_ledger.hpp"
#include "replay/sync/stream_runtime.hpp"
#include "singer/message_writer.hpp"

namespace tapdiffgen::core {

class PlanEmitter {
public:
    /// `others`: the sessions besides `connection` to share re-pulls with; they must outlive
    /// the emitter. Records, re-pull queries and shares are counted in `ledger`.
    PlanEmitter(DialectConnection& connection, MessageWriter& writer, RunLedger& ledger,
                int64_t keysPerFetch, RepullSessions others = {})
        : connection_(connection),
          writer_(writer),
          ledger_(ledger),
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
    };

    DialectConnection& connection_;
    MessageWriter& writer_;
    RunLedger& ledger_;
    int64_t keysPerFetch_;
    RepullSessions others_;

    // `sessions`: how many sessions this page is shared between (1: this one alone).
    std::vector<Chunk> cutChunks(const std::vector<Part>& parts, size_t pageKeys,
                                 size_t sessions) const;
    std::vector<Share> shareOut(const std::vector<Chunk>& chunks, size_t sessions) const;
    std::vector<FetchSpec> fetchesOf(std::vector<Chunk>& chunks, const Share& share,
                                     RecordSink& sink, const std::string& timeExtracted);
    void fetchShares(std::vector<Chunk>& chunks, std::vector<Share>& shares,
                     const std::string& timeExtracted);
    void emitGone(StreamRuntime& stream, const DrivingEvent& event,
                  const std::string& timeExtracted);
    void emitTombstone(StreamRuntime& stream, const DrivingEvent& event, std::string_view deletedAt,
                       const std::string& timeExtracted);
    static void emitRow(RecordSink& sink, Chunk& chunk, const TdgCell* cells,
                        const std::string& timeExtracted);
};

}  // namespace tapdiffgen::core

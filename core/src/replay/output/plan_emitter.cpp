#include "replay/output/plan_emitter.hpp"

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "keys/row_key.hpp"
#include "replay/output/table_change.hpp"
#include "replay/sessions/repull_shares.hpp"

namespace tapdiffgen::core {

namespace {

// Below this many keys in a page, handing a share to another thread costs more than it saves.
constexpr size_t kMinSharedPageKeys = 512;
// Reads of one page's rows, each after its tables changed again, before the run gives up.
constexpr int kMaxReadsOfAChangingPage = 5;
// The most the other sessions' shares of a page may take in their spools, where their records
// wait until the rows before them are written: at the widest rows seen so far, a page whose
// shares would take more is read on this session alone, its rows written as they come. Rows
// of 1 MiB would otherwise hold half the page in memory; the benchmark's rows of 10 columns
// spool about 9.5 MiB of a page of 30,000.
constexpr size_t kMaxSpooledBytes = size_t{16} << 20;

// Passes records on to the writer and counts their members' bytes.
class MeasuringSink : public RecordSink {
public:
    explicit MeasuringSink(RecordSink& sink) : sink_(sink) {}

    std::string& beginRecord(std::string_view stream) override {
        open_ = &sink_.beginRecord(stream);
        openedAt_ = open_->size();
        return *open_;
    }
    void endRecord(std::string_view timeExtracted) override {
        bytes_ += open_->size() - openedAt_;
        ++records_;
        sink_.endRecord(timeExtracted);
    }

    size_t bytes() const { return bytes_; }
    size_t records() const { return records_; }

private:
    RecordSink& sink_;
    std::string* open_ = nullptr;
    size_t openedAt_ = 0;
    size_t bytes_ = 0;
    size_t records_ = 0;
};

size_t keysOf(const std::vector<PlanEmitter::Part>& parts) {
    size_t keys = 0;
    for (const auto& part : parts) keys += part.plan->events.size();
    return keys;
}

std::vector<StreamRuntime*> streamsWithEvents(const std::vector<PlanEmitter::Part>& parts) {
    std::vector<StreamRuntime*> streams;
    for (const auto& part : parts) {
        if (!part.plan->events.empty()) streams.push_back(part.stream);
    }
    return streams;
}

}  // namespace

void PlanEmitter::emit(const std::vector<Part>& parts, const std::string& timeExtracted) {
    const size_t pageKeys = keysOf(parts);
    if (pageKeys == 0) return;
    const std::vector<StreamRuntime*> touched = streamsWithEvents(parts);
    schemas_.refresh(touched);
    // A session that failed re-pulls nothing more: the page is cut for those that remain.
    others_.erase(std::remove_if(others_.begin(), others_.end(),
                                 [](RepullSession* session) { return !session->usable(); }),
                  others_.end());
    std::vector<Chunk> chunks = cutChunks(parts, pageKeys, sessionsFor(pageKeys));
    ledger_.repullQueries += chunks.size();
    readChunks(chunks, touched, pageKeys, timeExtracted);
    for (Chunk& chunk : chunks) {
        ledger_.addRecords(chunk.stream->index, chunk.records);
        for (size_t i = chunk.begin; i < chunk.end; ++i) {
            if (!chunk.found[i - chunk.begin])
                emitGone(*chunk.stream, chunk.plan->events[i], timeExtracted);
        }
    }
}

// Rows already written stay written: after a change only the others are read again, under the
// new SCHEMA, and a row read again is the row as it is now, which is what the output promises.
void PlanEmitter::readChunks(std::vector<Chunk>& chunks, const std::vector<StreamRuntime*>& touched,
                             size_t pageKeys, const std::string& timeExtracted) {
    for (int read = 1;; ++read) {
        others_.erase(std::remove_if(others_.begin(), others_.end(),
                                     [](RepullSession* session) { return !session->usable(); }),
                      others_.end());
        std::vector<Share> shares = shareOut(chunks, sessionsFor(pageKeys));
        try {
            fetchShares(chunks, shares, timeExtracted);
            return;
        } catch (const TableChanged& changed) {
            for (const Share& share : shares) {
                if (share.written) continue;
                for (size_t c = share.begin; c < share.end; ++c) {
                    chunks[c].records = 0;
                    std::fill(chunks[c].found.begin(), chunks[c].found.end(), false);
                }
            }
            if (read == kMaxReadsOfAChangingPage) {
                throw SchemaChangeError(std::string(changed.what()) +
                                        " (the page's tables changed " + std::to_string(read) +
                                        " times while it was read)");
            }
            if (!schemas_.refresh(touched)) changed.rethrowAsFailure();
        }
    }
}

// A page is shared only once a share has shown how wide its records are: the first page's rows
// are read here and measured.
size_t PlanEmitter::sessionsFor(size_t pageKeys) const {
    if (pageKeys < kMinSharedPageKeys || others_.empty() || widestMeanRecord_ == 0) return 1;
    const size_t spooledKeys = pageKeys * others_.size() / (1 + others_.size());
    return spooledKeys * widestMeanRecord_ <= kMaxSpooledBytes ? 1 + others_.size() : 1;
}

void PlanEmitter::noteRecords(size_t memberBytes, size_t records) {
    if (records > 0) widestMeanRecord_ = std::max(widestMeanRecord_, memberBytes / records);
}

// A row the re-pull did not find is gone: deleted at its delete event's time, or, when its
// latest event was an insert or update, at some time since, which only the read tells.
void PlanEmitter::emitGone(StreamRuntime& stream, const DrivingEvent& event,
                           const std::string& timeExtracted) {
    const std::string_view deletedAt =
        event.op == TDG_OP_DELETE ? event.tsCreated : std::string_view(timeExtracted);
    emitTombstone(stream, event, deletedAt, timeExtracted);
}

std::vector<PlanEmitter::Chunk> PlanEmitter::cutChunks(const std::vector<Part>& parts,
                                                       size_t pageKeys, size_t sessions) const {
    const size_t chunkSize = sharedChunkSize(
        static_cast<size_t>(std::max<int64_t>(1, keysPerFetch_)), pageKeys, sessions);
    std::vector<Chunk> chunks;
    for (const Part& part : parts) {
        const size_t events = part.plan->events.size();
        for (size_t begin = 0; begin < events; begin += chunkSize) {
            const size_t end = std::min(events, begin + chunkSize);
            chunks.push_back(
                Chunk{part.stream, part.plan, begin, end, std::vector<bool>(end - begin, false)});
        }
    }
    return chunks;
}

// A stream whose output is not concurrent keeps its chunks on one thread.
std::vector<PlanEmitter::Share> PlanEmitter::shareOut(const std::vector<Chunk>& chunks,
                                                      size_t sessions) const {
    std::vector<size_t> boundaries;
    if (sessions > 1) {
        std::vector<size_t> keys;
        std::vector<bool> mayStartAt;
        for (size_t i = 0; i < chunks.size(); ++i) {
            keys.push_back(chunks[i].end - chunks[i].begin);
            mayStartAt.push_back(i == 0 || chunks[i].stream != chunks[i - 1].stream ||
                                 chunks[i].stream->output->concurrent());
        }
        boundaries = shareBoundaries(keys, mayStartAt, sessions);
    }
    std::vector<Share> shares;
    size_t begin = 0;
    for (size_t i = 0; i <= boundaries.size(); ++i) {
        const size_t end = i < boundaries.size() ? boundaries[i] : chunks.size();
        shares.push_back(Share{begin, end, i == 0 ? nullptr : others_[i - 1], {}});
        begin = end;
    }
    return shares;
}

std::vector<FetchSpec> PlanEmitter::fetchesOf(std::vector<Chunk>& chunks, const Share& share,
                                              RecordSink& sink, const std::string& timeExtracted) {
    std::vector<FetchSpec> fetches;
    fetches.reserve(share.end - share.begin);
    for (size_t c = share.begin; c < share.end; ++c) {
        Chunk& chunk = chunks[c];
        if (std::find(chunk.found.begin(), chunk.found.end(), false) == chunk.found.end()) {
            continue;
        }
        FetchSpec& fetch = fetches.emplace_back();
        const StreamDefinition& definition = *chunk.stream->definition;
        fetch.table = &definition.table;
        fetch.columns = &chunk.stream->renderer->columnNames();
        fetch.columnKinds = &chunk.stream->renderer->columnKinds();
        fetch.key = &definition.key;
        fetch.keys.reserve((chunk.end - chunk.begin) * definition.key.columns.size());
        for (size_t i = chunk.begin; i < chunk.end; ++i) {
            if (chunk.found[i - chunk.begin]) continue;
            const DrivingEvent& event = chunk.plan->events[i];
            for (size_t k = 0; k < event.key.columnCount(); ++k) {
                fetch.keys.emplace_back(event.key.column(k));
            }
        }
        fetch.onBatch = [&sink, &chunk, &timeExtracted](const TdgRowBatch& batch) {
            for (int64_t row = 0; row < batch.num_rows; ++row) {
                emitRow(sink, chunk, batch.cells + row * batch.num_columns, timeExtracted);
            }
        };
    }
    return fetches;
}

// The other sessions' shares start first, this session's runs meanwhile; then each share is
// written in order: from its spool, or, when its session failed, re-pulled here.
void PlanEmitter::fetchShares(std::vector<Chunk>& chunks, std::vector<Share>& shares,
                              const std::string& timeExtracted) {
    // Unwinding with shares still running elsewhere: they write into the chunks, so they are
    // interrupted and waited for before the chunks go.
    struct RunningShares {
        std::vector<Share>& shares;
        ~RunningShares() {
            for (Share& share : shares) {
                if (share.running) share.session->abandon();
            }
        }
    } running{shares};
    for (size_t s = 1; s < shares.size(); ++s) {
        Share& share = shares[s];
        share.fetches = fetchesOf(chunks, share, share.session->spool(), timeExtracted);
        share.running = share.session->start(share.fetches);
    }
    try {
        readHere(chunks, shares[0], timeExtracted);
        for (size_t s = 1; s < shares.size(); ++s) {
            Share& share = shares[s];
            const bool started = std::exchange(share.running, false);
            if (started && share.session->finish()) {
                RecordSpool& spool = share.session->spool();
                noteRecords(spool.memberBytes(), spool.size());
                spool.writeTo(writer_);
                share.written = true;
                ++ledger_.sharesElsewhere;
                continue;
            }
            if (started) ++ledger_.sharesTakenBack;
            // What the failed session found was never written.
            for (size_t c = share.begin; c < share.end; ++c) {
                std::fill(chunks[c].found.begin(), chunks[c].found.end(), false);
                chunks[c].records = 0;
            }
            readHere(chunks, share, timeExtracted);
        }
    } catch (const TableChanged&) {
        // The shares still running are let finish rather than interrupted, which would cost
        // their sessions; their rows are read again after the change.
        for (Share& share : shares) {
            if (!std::exchange(share.running, false)) continue;
            try {
                share.session->finish();
            } catch (const TableChanged&) {
                // The same change, seen by that share too.
            }
        }
        throw;
    }
}

void PlanEmitter::readHere(std::vector<Chunk>& chunks, Share& share,
                           const std::string& timeExtracted) {
    share.written = true;
    MeasuringSink sink(writer_);
    try {
        connection_.fetchRowsMany(fetchesOf(chunks, share, sink, timeExtracted));
    } catch (const DialectError& failure) {
        if (mayMeanTableChanged(failure)) throw TableChanged(failure);
        throw;
    }
    noteRecords(sink.bytes(), sink.records());
}

void PlanEmitter::emitTombstone(StreamRuntime& stream, const DrivingEvent& event,
                                std::string_view deletedAt, const std::string& timeExtracted) {
    ledger_.addRecords(stream.index,
                       stream.output->writeTombstone(writer_, event.key, event.tsCreated, deletedAt,
                                                     timeExtracted));
}

// A row that does not fit its columns as described comes from a table that changed after it
// was described: nothing of it is written. A row whose key was not asked for in this chunk (a
// case-insensitive collation matching another spelling), or that came twice, is not this
// event's row: skipped rather than emitted. A stream of deletions only (tombstones_only)
// re-pulls to learn that a row still exists, and emits nothing for it.
void PlanEmitter::emitRow(RecordSink& sink, Chunk& chunk, const TdgCell* cells,
                          const std::string& timeExtracted) {
    StreamRuntime& stream = *chunk.stream;
    throwIfMisfit(*stream.renderer, stream.definition->tableName, cells);
    const size_t match = chunk.plan->findEvent(
        canonicalKeyOfRow(cells, stream.renderer->keyPositions(), stream.definition->key));
    if (match == KeyIndex::npos || match < chunk.begin || match >= chunk.end ||
        chunk.found[match - chunk.begin]) {
        return;
    }
    chunk.found[match - chunk.begin] = true;
    if (stream.keyRule.tombstonesOnly) return;
    chunk.records +=
        stream.output->writeRow(sink, cells, chunk.plan->events[match].tsCreated, timeExtracted);
}

}  // namespace tapdiffgen::core

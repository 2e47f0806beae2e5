#include "replay/output/table_reader.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "keys/row_key.hpp"
#include "replay/output/table_change.hpp"
#include "replay/sessions/repull_shares.hpp"
#include "util/log.hpp"

namespace tapdiffgen::core {

namespace {

// Below this many keys in a page, handing a share to another thread costs more than it saves.
constexpr size_t kMinSharedPageKeys = 512;
// Reads of one page's rows, each after its tables changed again, before the run gives up.
constexpr int kMaxReadsOfAChangingPage = 5;
// Reads of one chunk whose table changed again each time, before the run gives up.
constexpr int kMaxChunkReads = 5;
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

size_t keysOf(const std::vector<KeyRead>& reads) {
    size_t keys = 0;
    for (const auto& read : reads) keys += read.plan->events.size();
    return keys;
}

std::vector<StreamChannel*> streamsWithEvents(const std::vector<KeyRead>& reads) {
    std::vector<StreamChannel*> streams;
    for (const auto& read : reads) {
        if (!read.plan->events.empty()) streams.push_back(read.stream);
    }
    return streams;
}

// What a batch's rows weigh in memory and on the wire, near enough to size chunks by.
uint64_t batchBytes(const TdgRowBatch& batch) {
    uint64_t bytes = 0;
    const int64_t cells = batch.num_rows * batch.num_columns;
    for (int64_t i = 0; i < cells; ++i) bytes += sizeof(TdgCell) + batch.cells[i].size;
    return bytes;
}

}  // namespace

TableReader::TableReader(DialectConnection& connection, MessageWriter& writer,
                         const StreamOutputs& outputs, RunClock& clock, RunObserver& observer,
                         int64_t keysPerFetch, RepullSessions others)
    : connection_(connection),
      writer_(writer),
      schemas_(connection, writer, outputs, clock),
      observer_(observer),
      keysPerFetch_(keysPerFetch),
      others_(std::move(others)) {}

std::vector<KeysFound> TableReader::readKeys(const std::vector<KeyRead>& reads,
                                             const KeyedRowSink& sink) {
    std::vector<KeysFound> results(reads.size());
    const size_t pageKeys = keysOf(reads);
    if (pageKeys == 0) return results;
    const std::vector<StreamChannel*> touched = streamsWithEvents(reads);
    schemas_.refresh(touched);
    std::vector<Chunk> chunks = cutChunks(reads, pageKeys, sessionsFor(pageKeys));
    const auto started = std::chrono::steady_clock::now();
    readChunks(chunks, touched, pageKeys, sink);
    tellRepulls(chunks,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    for (size_t r = 0; r < reads.size(); ++r) {
        results[r].found.assign(reads[r].plan->events.size(), false);
    }
    for (const Chunk& chunk : chunks) {
        KeysFound& result = results[static_cast<size_t>(chunk.read - reads.data())];
        std::copy(chunk.found.begin(), chunk.found.end(), result.found.begin() + chunk.begin);
        result.records += chunk.records;
    }
    return results;
}

// A session that failed re-pulls nothing more: the page is cut for those that remain. A page
// is shared only once a share has shown how wide its records are: the first page's rows are
// read here and measured.
size_t TableReader::sessionsFor(size_t pageKeys) {
    others_.erase(std::remove_if(others_.begin(), others_.end(),
                                 [](RepullSession* session) { return !session->usable(); }),
                  others_.end());
    if (pageKeys < kMinSharedPageKeys || others_.empty() || widestMeanRecord_ == 0) return 1;
    const size_t spooledKeys = pageKeys * others_.size() / (1 + others_.size());
    return spooledKeys * widestMeanRecord_ <= kMaxSpooledBytes ? 1 + others_.size() : 1;
}

void TableReader::noteRecords(size_t memberBytes, size_t records) {
    if (records > 0) widestMeanRecord_ = std::max(widestMeanRecord_, memberBytes / records);
}

// Rows already written stay written: after a change only the others are read again, under the
// new SCHEMA, and a row read again is the row as it is now, which is what the output promises.
void TableReader::readChunks(std::vector<Chunk>& chunks, const std::vector<StreamChannel*>& touched,
                             size_t pageKeys, const KeyedRowSink& sink) {
    for (int read = 1;; ++read) {
        std::vector<Share> shares = shareOut(chunks, sessionsFor(pageKeys));
        try {
            fetchShares(chunks, shares, sink);
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

// A page's chunks are read together, often interleaved on several sessions: each stream is
// given its share of the page's time by its keys.
void TableReader::tellRepulls(const std::vector<Chunk>& chunks, double seconds) {
    std::map<size_t, RepullDone> byStream;
    uint64_t allKeys = 0;
    for (const Chunk& chunk : chunks) {
        RepullDone& done = byStream[chunk.read->index];
        done.stream = chunk.read->index;
        done.keys += chunk.end - chunk.begin;
        done.queries += 1;
        allKeys += chunk.end - chunk.begin;
    }
    for (auto& [index, done] : byStream) {
        done.seconds =
            allKeys == 0 ? 0
                         : seconds * static_cast<double>(done.keys) / static_cast<double>(allKeys);
        observer_.rowsRepulled(done);
    }
}

std::vector<TableReader::Chunk> TableReader::cutChunks(const std::vector<KeyRead>& reads,
                                                       size_t pageKeys, size_t sessions) const {
    const size_t chunkSize = sharedChunkSize(
        static_cast<size_t>(std::max<int64_t>(1, keysPerFetch_)), pageKeys, sessions);
    std::vector<Chunk> chunks;
    for (const KeyRead& read : reads) {
        const size_t events = read.plan->events.size();
        for (size_t begin = 0; begin < events; begin += chunkSize) {
            const size_t end = std::min(events, begin + chunkSize);
            chunks.push_back(Chunk{&read, begin, end, std::vector<bool>(end - begin, false)});
        }
    }
    return chunks;
}

// A stream whose output is not concurrent keeps its chunks on one thread.
std::vector<TableReader::Share> TableReader::shareOut(const std::vector<Chunk>& chunks,
                                                      size_t sessions) const {
    std::vector<size_t> boundaries;
    if (sessions > 1) {
        std::vector<size_t> keys;
        std::vector<bool> mayStartAt;
        for (size_t i = 0; i < chunks.size(); ++i) {
            keys.push_back(chunks[i].end - chunks[i].begin);
            mayStartAt.push_back(i == 0 || chunks[i].read->stream != chunks[i - 1].read->stream ||
                                 chunks[i].read->stream->output->concurrent());
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

std::vector<FetchSpec> TableReader::fetchesOf(std::vector<Chunk>& chunks, const Share& share,
                                              RecordSink& into, const KeyedRowSink& sink) {
    std::vector<FetchSpec> fetches;
    fetches.reserve(share.end - share.begin);
    for (size_t c = share.begin; c < share.end; ++c) {
        Chunk& chunk = chunks[c];
        if (std::find(chunk.found.begin(), chunk.found.end(), false) == chunk.found.end()) {
            continue;
        }
        FetchSpec& fetch = fetches.emplace_back();
        const StreamChannel& stream = *chunk.read->stream;
        const StreamDefinition& definition = *stream.definition;
        fetch.table = &definition.table;
        fetch.columns = &stream.renderer->columnNames();
        fetch.columnKinds = &stream.renderer->columnKinds();
        fetch.key = &definition.key;
        fetch.keys.reserve((chunk.end - chunk.begin) * definition.key.columns.size());
        for (size_t i = chunk.begin; i < chunk.end; ++i) {
            if (chunk.found[i - chunk.begin]) continue;
            const DrivingEvent& event = chunk.read->plan->events[i];
            for (size_t k = 0; k < event.key.columnCount(); ++k) {
                fetch.keys.emplace_back(event.key.column(k));
            }
        }
        fetch.onBatch = [&into, &chunk, &sink](const TdgRowBatch& batch) {
            for (int64_t row = 0; row < batch.num_rows; ++row) {
                takeRow(into, chunk, batch.cells + row * batch.num_columns, sink);
            }
        };
    }
    return fetches;
}

// The other sessions' shares start first, this session's runs meanwhile; then each share is
// written in order: from its spool, or, when its session failed, re-pulled here.
void TableReader::fetchShares(std::vector<Chunk>& chunks, std::vector<Share>& shares,
                              const KeyedRowSink& sink) {
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
        share.fetches = fetchesOf(chunks, share, share.session->spool(), sink);
        share.running = share.session->start(share.fetches);
    }
    try {
        readHere(chunks, shares[0], sink);
        for (size_t s = 1; s < shares.size(); ++s) {
            Share& share = shares[s];
            const bool started = std::exchange(share.running, false);
            if (started && share.session->finish()) {
                RecordSpool& spool = share.session->spool();
                noteRecords(spool.memberBytes(), spool.size());
                spool.writeTo(writer_);
                share.written = true;
                observer_.repullShareMoved(true);
                continue;
            }
            if (started) {
                observer_.repullShareMoved(false);
                observer_.retried(RetryCause::RepullSessionFailed);
            }
            // What the failed session found was never written.
            for (size_t c = share.begin; c < share.end; ++c) {
                std::fill(chunks[c].found.begin(), chunks[c].found.end(), false);
                chunks[c].records = 0;
            }
            readHere(chunks, share, sink);
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

void TableReader::readHere(std::vector<Chunk>& chunks, Share& share, const KeyedRowSink& sink) {
    share.written = true;
    MeasuringSink measured(writer_);
    try {
        connection_.fetchRowsMany(fetchesOf(chunks, share, measured, sink));
    } catch (const DialectError& failure) {
        if (mayMeanTableChanged(failure)) throw TableChanged(failure);
        throw;
    }
    noteRecords(measured.bytes(), measured.records());
}

// A row that does not fit its columns as described comes from a table that changed after it
// was described: nothing of it is written. A row whose key was not asked for in this chunk (a
// case-insensitive collation matching another spelling), or that came twice, is not this
// event's row: skipped rather than handed on.
void TableReader::takeRow(RecordSink& into, Chunk& chunk, const TdgCell* cells,
                          const KeyedRowSink& sink) {
    const StreamChannel& stream = *chunk.read->stream;
    throwIfMisfit(*stream.renderer, stream.definition->tableName, cells);
    const size_t match = chunk.read->plan->findEvent(
        canonicalKeyOfRow(cells, stream.renderer->keyPositions(), stream.definition->key));
    if (match == KeyIndex::npos || match < chunk.begin || match >= chunk.end ||
        chunk.found[match - chunk.begin]) {
        return;
    }
    chunk.found[match - chunk.begin] = true;
    chunk.records += sink(*chunk.read, match, into, cells);
}

// A chunk whose table changed under it (table_change.hpp) is read again from the same key with
// the table's new columns, under a new SCHEMA; the rows written before the change stay written,
// and are written again, which a replica takes as the same rows.
ChunkRead TableReader::readChunk(StreamChannel& stream, const std::vector<TdgCell>& afterKey,
                                 int64_t maxRows, int64_t wholeBatchRows,
                                 const ChunkRowSink& sink) {
    const std::vector<StreamChannel*> only{&stream};
    for (int read = 1;; ++read) {
        try {
            return readChunkOnce(stream, afterKey, maxRows, wholeBatchRows, sink);
        } catch (const DialectError& failure) {
            if (!mayMeanTableChanged(failure) || read == kMaxChunkReads) throw;
            if (!schemas_.refresh(only)) throw;
        } catch (const TableChanged& changed) {
            if (read == kMaxChunkReads || !schemas_.refresh(only)) changed.rethrowAsFailure();
        }
        log::info("stream '" + stream.definition->name +
                  "': the snapshot reads its chunk again with the table's new columns");
    }
}

// Each row is handed on as soon as it arrives, so that memory holds a batch at most.
ChunkRead TableReader::readChunkOnce(StreamChannel& stream, const std::vector<TdgCell>& afterKey,
                                     int64_t maxRows, int64_t wholeBatchRows,
                                     const ChunkRowSink& sink) {
    const RecordRenderer& renderer = *stream.renderer;
    const StreamDefinition& definition = *stream.definition;
    const ScanSpec scan{&definition.table, &renderer.columnNames(), &renderer.columnKinds(),
                        &definition.key, 0};
    ChunkRead chunk;
    const auto onBatch = [&](const TdgRowBatch& batch) {
        for (int64_t row = 0; row < batch.num_rows; ++row) {
            const TdgCell* cells = batch.cells + row * batch.num_columns;
            throwIfMisfit(renderer, definition.tableName, cells);
            sink.row(cells);
        }
        if (batch.num_rows > 0) {
            sink.batchDone(batch.cells + (batch.num_rows - 1) * batch.num_columns);
        }
        chunk.rows += batch.num_rows;
        chunk.bytes += batchBytes(batch);
    };
    if (connection_.scanChunk(scan, afterKey, maxRows, onBatch)) return chunk;
    log::info("the " + connection_.plugin().dialect() +
              " plugin cannot read a table in chunks (scan_chunk, ABI revision 5): the "
              "snapshot of '" +
              definition.name +
              "' is one scan of the table, which starts again from its first row if it is "
              "interrupted");
    chunk.whole = true;
    connection_.scanTable(
        ScanSpec{scan.table, scan.columns, scan.columnKinds, scan.key, wholeBatchRows}, onBatch);
    return chunk;
}

}  // namespace tapdiffgen::core

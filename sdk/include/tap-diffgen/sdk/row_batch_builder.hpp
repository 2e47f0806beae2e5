// Collects rows into TdgRowBatch blocks and hands each full block to the host's sink, so a
// driver streams any result in bounded memory without one call per row.
#pragma once

#include "tap-diffgen/sdk/call_cancel.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tap-diffgen/dialect_abi.h"
#include "tap-diffgen/sdk/key_run.hpp"

namespace tapdiffgen::sdk {

class RowBatchBuilder {
public:
    /// rowsPerBatch (2048 when 0 or less) and bytesPerBatch bound a block; whichever is reached
    /// first flushes it.
    RowBatchBuilder(TdgBatchSink sink, void* sinkContext, int numColumns,
                    int64_t rowsPerBatch = 2048, size_t bytesPerBatch = 8u << 20);

    int numColumns() const { return numColumns_; }

    /// Takes room for the cells of `rows` rows (at most one batch) at once, so that a read of
    /// a known size does not grow the block step by step, copying it each time. A builder
    /// takes no room before: fetchRowsMany holds one per request, most of them small.
    void expectRows(int64_t rows);

    void addNull();
    void addBool(bool value);
    void addInt64(int64_t value);
    /// Any text-carrying kind (DECIMAL, TEXT, BYTES, JSON, DATE, TIME, TIMESTAMP, TIMESTAMPTZ).
    void addText(TdgValueKind kind, std::string_view value);
    /// Starts a text cell that the caller appends to the returned buffer (no temporary string);
    /// endText() closes it. Nothing else may be added in between.
    std::string& beginText(TdgValueKind kind);
    void endText();

    /// Ends a row (checks the cell count) and flushes when the block is full; a row that
    /// dropRowsNotAsked drops is taken back instead.
    void endRow();
    /// From now on, until called again (with nullptr to stop), endRow drops each row whose cell
    /// `keyColumn` is an integer that `runs` read without being asked for (KeyRuns::asked):
    /// a fetch that reads dense runs as ranges returns exactly the rows its keys name. `runs`
    /// must outlive the rows. Set it before each read: a builder that read another plan's rows
    /// must not keep its filter.
    void dropRowsNotAsked(const KeyRuns* runs, int keyColumn);
    /// Rows endRow dropped so far.
    int64_t rowsDropped() const { return rowsDropped_; }
    /// Sends what is pending. Throws DriverError(TDG_CANCELLED) when the sink asks to stop.
    void flush();
    /// flush(), then gives the buffers' memory back: for a builder whose read is over while
    /// others of the same call live on (fetchRowsMany).
    void finish();
    int64_t rowsSent() const { return rowsSent_; }

    /// After a batch is delivered, a cancel requested through `cancel` stops the stream as the
    /// reader stopping it would (DriverError TDG_CANCELLED), so that rows the client had
    /// already received before the cancel reached the server are not all delivered anyway.
    /// DriverBase sets it for every row-streaming call.
    void stopOn(const CallCancel* cancel) { cancel_ = cancel; }

private:
    bool rowWasAsked(size_t rowStart) const;

    struct PendingCell {
        TdgValueKind kind;
        int64_t i64;
        size_t offset;  // into arena_, for text kinds
        size_t size;
    };

    TdgBatchSink sink_;
    void* sinkContext_;
    int numColumns_;
    int64_t rowsPerBatch_;
    size_t bytesPerBatch_;
    std::vector<PendingCell> pending_;
    std::string arena_;
    std::vector<TdgCell> cells_;
    int64_t rows_ = 0;
    int64_t rowsSent_ = 0;
    int64_t rowsDropped_ = 0;
    bool inText_ = false;
    const KeyRuns* askedKeys_ = nullptr;
    size_t keyColumn_ = 0;
    const CallCancel* cancel_ = nullptr;
};

/// RowBatchBuilder::dropRowsNotAsked for the life of a read, off again when it ends however it
/// ends: a builder outlives the runs a failed read planned.
class DroppingRowsNotAsked {
public:
    DroppingRowsNotAsked(RowBatchBuilder& rows, const KeyRuns* runs, int keyColumn) : rows_(rows) {
        rows_.dropRowsNotAsked(runs, keyColumn);
    }
    ~DroppingRowsNotAsked() { rows_.dropRowsNotAsked(nullptr, 0); }
    DroppingRowsNotAsked(const DroppingRowsNotAsked&) = delete;
    DroppingRowsNotAsked& operator=(const DroppingRowsNotAsked&) = delete;

private:
    RowBatchBuilder& rows_;
};

}  // namespace tapdiffgen::sdk

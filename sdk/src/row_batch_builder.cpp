#include "tap-diffgen/sdk/row_batch_builder.hpp"

#include "tap-diffgen/sdk/errors.hpp"

#include <algorithm>
#include <charconv>

namespace tapdiffgen::sdk {

RowBatchBuilder::RowBatchBuilder(TdgBatchSink sink, void* sinkContext, int numColumns,
                                 int64_t rowsPerBatch, size_t bytesPerBatch)
    : sink_(sink),
      sinkContext_(sinkContext),
      numColumns_(numColumns),
      rowsPerBatch_(rowsPerBatch > 0 ? rowsPerBatch : 2048),
      bytesPerBatch_(bytesPerBatch) {}

void RowBatchBuilder::expectRows(int64_t rows) {
    const int64_t batch = std::min(std::max<int64_t>(rows, 0), rowsPerBatch_);
    pending_.reserve(static_cast<size_t>(numColumns_) * static_cast<size_t>(batch));
}

void RowBatchBuilder::addNull() { pending_.push_back({TDG_KIND_NULL, 0, 0, 0}); }

void RowBatchBuilder::addBool(bool value) {
    pending_.push_back({TDG_KIND_BOOL, value ? 1 : 0, 0, 0});
}

void RowBatchBuilder::addInt64(int64_t value) { pending_.push_back({TDG_KIND_INT64, value, 0, 0}); }

void RowBatchBuilder::addText(TdgValueKind kind, std::string_view value) {
    pending_.push_back({kind, 0, arena_.size(), value.size()});
    arena_.append(value.data(), value.size());
}

std::string& RowBatchBuilder::beginText(TdgValueKind kind) {
    if (inText_) throw DriverError(TDG_INTERNAL, "beginText called twice without endText");
    inText_ = true;
    pending_.push_back({kind, 0, arena_.size(), 0});
    return arena_;
}

void RowBatchBuilder::endText() {
    if (!inText_) throw DriverError(TDG_INTERNAL, "endText called without beginText");
    inText_ = false;
    PendingCell& cell = pending_.back();
    cell.size = arena_.size() - cell.offset;
}

void RowBatchBuilder::endRow() {
    ++rows_;
    if (pending_.size() != static_cast<size_t>(rows_) * static_cast<size_t>(numColumns_)) {
        throw DriverError(TDG_INTERNAL, "row has " + std::to_string(pending_.size() % numColumns_) +
                                            " cells, expected " + std::to_string(numColumns_));
    }
    const size_t rowStart = pending_.size() - static_cast<size_t>(numColumns_);
    if (askedKeys_ != nullptr && !rowWasAsked(rowStart)) {
        // The row's text is the arena's tail, from its first text cell on.
        for (size_t i = rowStart; i < pending_.size(); ++i) {
            if (pending_[i].kind >= TDG_KIND_DECIMAL) {
                arena_.resize(pending_[i].offset);
                break;
            }
        }
        pending_.resize(rowStart);
        --rows_;
        ++rowsDropped_;
        return;
    }
    if (rows_ >= rowsPerBatch_ || arena_.size() >= bytesPerBatch_) flush();
}

void RowBatchBuilder::dropRowsNotAsked(const KeyRuns* runs, int keyColumn) {
    if (runs != nullptr && (keyColumn < 0 || keyColumn >= numColumns_)) {
        throw DriverError(TDG_INTERNAL, "key column " + std::to_string(keyColumn) +
                                            " of a row of " + std::to_string(numColumns_));
    }
    askedKeys_ = runs;
    keyColumn_ = static_cast<size_t>(keyColumn);
}

// A key the runs cannot have read (NULL, not an integer) was asked for by the key list.
bool RowBatchBuilder::rowWasAsked(size_t rowStart) const {
    const PendingCell& key = pending_[rowStart + keyColumn_];
    int64_t value = key.i64;
    if (key.kind >= TDG_KIND_DECIMAL) {
        const char* text = arena_.data() + key.offset;
        auto parsed = std::from_chars(text, text + key.size, value);
        if (parsed.ec != std::errc() || parsed.ptr != text + key.size) return true;
    } else if (key.kind != TDG_KIND_INT64) {
        return true;
    }
    return askedKeys_->asked(value);
}

void RowBatchBuilder::flush() {
    if (rows_ == 0) return;
    // Cells point into the arena only now: the arena may have moved while it grew.
    cells_.resize(pending_.size());
    for (size_t i = 0; i < pending_.size(); ++i) {
        const PendingCell& from = pending_[i];
        TdgCell& to = cells_[i];
        to.kind = from.kind;
        to.reserved_ = 0;
        to.i64 = from.i64;
        to.data = from.kind >= TDG_KIND_DECIMAL ? arena_.data() + from.offset : nullptr;
        to.size = from.size;
    }
    TdgRowBatch batch{rows_, numColumns_, 0, cells_.data()};
    int32_t verdict = sink_(sinkContext_, &batch);
    rowsSent_ += rows_;
    rows_ = 0;
    pending_.clear();
    arena_.clear();
    if (verdict != 0) throw DriverError(TDG_CANCELLED, "the reader stopped the row stream");
    if (cancel_ != nullptr) cancel_->throwIfRequested("the row stream");
}

void RowBatchBuilder::finish() {
    flush();
    std::vector<PendingCell>().swap(pending_);
    std::string().swap(arena_);
    std::vector<TdgCell>().swap(cells_);
}

}  // namespace tapdiffgen::sdk

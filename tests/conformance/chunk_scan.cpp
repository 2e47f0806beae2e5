#include "chunk_scan.hpp"

#include <algorithm>

#include "case_result.hpp"
#include "cell_text.hpp"

namespace tapdiffgen::conformance {
namespace {

// The key cells of a chunk's last row, copied out of the lent batch.
class LastKey {
public:
    explicit LastKey(std::vector<size_t> keyIndexes) : keyIndexes_(std::move(keyIndexes)) {}

    void take(const TdgRowBatch& batch) {
        if (batch.num_rows <= 0) return;
        const TdgCell* row = batch.cells + (batch.num_rows - 1) * batch.num_columns;
        cells_.clear();
        texts_.clear();
        for (size_t index : keyIndexes_) {
            cells_.push_back(row[index]);
            texts_.emplace_back(row[index].data == nullptr
                                    ? std::string()
                                    : std::string(row[index].data, row[index].size));
        }
    }

    /// The cells, their texts pointing into this object (which outlives the call they go to).
    std::vector<TdgCell> cells() const {
        std::vector<TdgCell> cells = cells_;
        for (size_t k = 0; k < cells.size(); ++k) {
            if (cells[k].data != nullptr) cells[k].data = texts_[k].data();
        }
        return cells;
    }

    std::string display() const {
        RowText key;
        for (const TdgCell& cell : cells()) key.push_back(cellText(cell));
        return rowDisplay(key);
    }

private:
    std::vector<size_t> keyIndexes_;
    std::vector<TdgCell> cells_;
    std::vector<std::string> texts_;
};

std::vector<size_t> keyIndexes(const core::ScanSpec& scan) {
    std::vector<size_t> indexes;
    for (const core::KeyColumn& key : scan.key->columns) {
        auto at = std::find(scan.columns->begin(), scan.columns->end(), key.name);
        require(at != scan.columns->end(),
                "key column '" + key.name + "' is not among the columns read");
        indexes.push_back(static_cast<size_t>(at - scan.columns->begin()));
    }
    return indexes;
}

}  // namespace

std::optional<ChunkedRows> scanInChunks(core::DialectConnection& connection,
                                        const core::ScanSpec& scan, int64_t maxRows,
                                        size_t tableRows) {
    LastKey last(keyIndexes(scan));
    RowCollector collector(*scan.columns, *scan.columnKinds);
    ChunkedRows result;
    size_t rowsSoFar = 0;
    for (;;) {
        const std::string after = result.chunks == 0 ? "the first row" : "key " + last.display();
        int64_t inChunk = 0;
        // The plugin may read after_key while it streams: it keeps its own copy of the key.
        const LastKey before = last;
        const std::vector<TdgCell> afterKey = before.cells();
        const bool read = connection.scanChunk(scan, afterKey, maxRows, [&](const TdgRowBatch& b) {
            collector.add(b);
            last.take(b);
            inChunk += b.num_rows;
        });
        if (!read) return std::nullopt;
        ++result.chunks;
        require(inChunk <= maxRows, "scan_chunk after " + after + " returned " +
                                        std::to_string(inChunk) + " rows, more than max_rows " +
                                        std::to_string(maxRows));
        rowsSoFar += static_cast<size_t>(inChunk);
        require(rowsSoFar <= tableRows + static_cast<size_t>(maxRows),
                "scan_chunk in chunks of " + std::to_string(maxRows) + " returned " +
                    std::to_string(rowsSoFar) + " rows in " + std::to_string(result.chunks) +
                    " chunks from a table of " + std::to_string(tableRows) +
                    " and goes on (the chunk after " + after +
                    " starts at or before that key again: after_key is exclusive)");
        if (inChunk < maxRows) break;
    }
    result.rows = collector.sortedRows();
    return result;
}

void requireChunkedRows(const std::string& table, int64_t maxRows,
                        const std::vector<RowText>& expected, const ChunkedRows& actual) {
    requireSameRows("scan_chunk of '" + table + "' in chunks of " + std::to_string(maxRows) + " (" +
                        std::to_string(actual.chunks) + " chunks)",
                    expected, actual.rows);
}

}  // namespace tapdiffgen::conformance

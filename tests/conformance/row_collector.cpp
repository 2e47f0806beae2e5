#include "row_collector.hpp"

#include <algorithm>

#include "case_result.hpp"
#include "cell_text.hpp"

namespace tapdiffgen::conformance {

RowCollector::RowCollector(std::vector<std::string> names, std::vector<TdgValueKind> kinds)
    : names_(std::move(names)), kinds_(std::move(kinds)) {}

void RowCollector::add(const TdgRowBatch& batch) {
    ++batches_;
    require(batch.num_columns == static_cast<int32_t>(kinds_.size()),
            "a batch has " + std::to_string(batch.num_columns) + " columns, " +
                std::to_string(kinds_.size()) + " were requested");
    require(batch.num_rows >= 0, "a batch has a negative row count");
    require(batch.num_rows == 0 || batch.cells != nullptr, "a batch has rows but no cells");
    for (int64_t r = 0; r < batch.num_rows; ++r) {
        RowText row;
        for (int32_t c = 0; c < batch.num_columns; ++c) {
            const TdgCell& cell = batch.cells[r * batch.num_columns + c];
            require(cell.kind == TDG_KIND_NULL || cell.kind == kinds_[static_cast<size_t>(c)],
                    "column '" + names_[static_cast<size_t>(c)] + "' was described as " +
                        kindName(kinds_[static_cast<size_t>(c)]) + " but a cell arrived as " +
                        kindName(cell.kind));
            row.push_back(cellText(cell));
        }
        rows_.push_back(std::move(row));
    }
}

std::vector<RowText> RowCollector::sortedRows() const {
    std::vector<RowText> rows = rows_;
    std::sort(rows.begin(), rows.end());
    return rows;
}

std::string rowDisplay(const RowText& row) {
    // A message names a few values: a fetch of 20,000 keys would otherwise fill the screen.
    constexpr size_t kShown = 12;
    std::string text = "[";
    for (size_t i = 0; i < std::min(row.size(), kShown); ++i) text += (i > 0 ? ", " : "") + row[i];
    if (row.size() > kShown) text += ", ... (" + std::to_string(row.size()) + " in all)";
    return text + "]";
}

void requireSameRows(const std::string& what, const std::vector<RowText>& expected,
                     const std::vector<RowText>& actual) {
    for (size_t i = 0; i < std::min(expected.size(), actual.size()); ++i) {
        if (expected[i] != actual[i]) {
            throw CaseFailure(what + ": expected row " + rowDisplay(expected[i]) + ", got " +
                              rowDisplay(actual[i]));
        }
    }
    if (expected.size() == actual.size()) return;
    std::string example = actual.size() > expected.size()
                              ? "first extra: " + rowDisplay(actual[expected.size()])
                              : "first missing: " + rowDisplay(expected[actual.size()]);
    throw CaseFailure(what + ": expected " + std::to_string(expected.size()) + " rows, got " +
                      std::to_string(actual.size()) + " (" + example + ")");
}

}  // namespace tapdiffgen::conformance

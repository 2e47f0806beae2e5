#include "row_collector.hpp"

#include <algorithm>
#include <iterator>
#include <optional>
#include <tuple>

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

namespace {

// A value as a message shows it: a long one cut, with its length.
constexpr size_t kLongestShown = 80;

std::string shownValue(const std::string& value) {
    if (value.size() <= kLongestShown) return value;
    return value.substr(0, kLongestShown / 2) + "... (" + std::to_string(value.size()) +
           " characters)";
}

// Where two rows first differ, for a message: "value 3 differs at character 65537 (1048578
// characters expected, 65538 got)"; empty when the difference is plain in the rows shown.
std::string firstDifference(const RowText& expected, const RowText& actual) {
    for (size_t c = 0; c < std::min(expected.size(), actual.size()); ++c) {
        if (expected[c] == actual[c]) continue;
        if (expected[c].size() <= kLongestShown && actual[c].size() <= kLongestShown) return "";
        size_t at = 0;
        while (at < expected[c].size() && at < actual[c].size() && expected[c][at] == actual[c][at])
            ++at;
        return "; value " + std::to_string(c + 1) + " differs at character " +
               std::to_string(at + 1) + " (" + std::to_string(expected[c].size()) +
               " characters expected, " + std::to_string(actual[c].size()) + " got)";
    }
    return "";
}

// The first row `actual` holds more often than `expected` (both sorted), with both counts.
std::optional<std::tuple<RowText, size_t, size_t>> firstRepeated(
    const std::vector<RowText>& expected, const std::vector<RowText>& actual) {
    for (size_t i = 0; i < actual.size();) {
        size_t end = i;
        while (end < actual.size() && actual[end] == actual[i]) ++end;
        const size_t times = end - i;
        if (times > 1) {
            auto range = std::equal_range(expected.begin(), expected.end(), actual[i]);
            const size_t wanted = static_cast<size_t>(range.second - range.first);
            if (times > wanted) return std::make_tuple(actual[i], times, wanted);
        }
        i = end;
    }
    return std::nullopt;
}

}  // namespace

std::string rowDisplay(const RowText& row) {
    // A message names a few values: a fetch of 20,000 keys would otherwise fill the screen.
    constexpr size_t kShown = 12;
    std::string text = "[";
    for (size_t i = 0; i < std::min(row.size(), kShown); ++i)
        text += (i > 0 ? ", " : "") + shownValue(row[i]);
    if (row.size() > kShown) text += ", ... (" + std::to_string(row.size()) + " in all)";
    return text + "]";
}

void requireSameRows(const std::string& what, const std::vector<RowText>& expected,
                     const std::vector<RowText>& actual) {
    // A row delivered twice is named as such: compared in sorted order it would show as some
    // other row's mismatch.
    if (auto repeated = firstRepeated(expected, actual)) {
        const auto& [row, times, wanted] = *repeated;
        throw CaseFailure(
            what + ": the row " + rowDisplay(row) + " came " + std::to_string(times) +
            " times, expected " + (wanted == 0 ? "never" : std::to_string(wanted) + " time(s)") +
            " (" + std::to_string(actual.size()) + " rows, " + std::to_string(expected.size()) +
            " expected): a page or chunk that starts at its bound's row again "
            "(after a key means strictly after it), or one key read twice");
    }
    if (expected.size() != actual.size()) {
        // Name what is missing or extra, not the first place where the sorted lists part.
        std::vector<RowText> missing, extra;
        std::set_difference(expected.begin(), expected.end(), actual.begin(), actual.end(),
                            std::back_inserter(missing));
        std::set_difference(actual.begin(), actual.end(), expected.begin(), expected.end(),
                            std::back_inserter(extra));
        std::string example;
        if (!missing.empty()) {
            example = "first missing: " + rowDisplay(missing.front()) + ", " +
                      std::to_string(missing.size()) + " missing in all";
        }
        if (!extra.empty()) {
            example += (example.empty() ? "" : "; ") + std::string("first extra: ") +
                       rowDisplay(extra.front());
        }
        throw CaseFailure(what + ": expected " + std::to_string(expected.size()) + " rows, got " +
                          std::to_string(actual.size()) + " (" + example + ")");
    }
    for (size_t i = 0; i < std::min(expected.size(), actual.size()); ++i) {
        if (expected[i] != actual[i]) {
            throw CaseFailure(what + ": expected row " + rowDisplay(expected[i]) + ", got " +
                              rowDisplay(actual[i]) + firstDifference(expected[i], actual[i]));
        }
    }
}

}  // namespace tapdiffgen::conformance

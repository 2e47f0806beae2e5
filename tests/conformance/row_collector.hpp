// Collects the row batches a plugin streams, checking each batch's shape and each cell's kind
// against the columns requested, and turns the rows into comparable text (cell_text.hpp).
#pragma once

#include <string>
#include <vector>

#include "tap-diffgen/dialect_abi.h"

namespace tapdiffgen::conformance {

using RowText = std::vector<std::string>;

class RowCollector {
public:
    /// `names` and `kinds`: the requested columns, in request order.
    RowCollector(std::vector<std::string> names, std::vector<TdgValueKind> kinds);

    /// The sink. Throws CaseFailure on a malformed batch (the read then stops).
    void add(const TdgRowBatch& batch);

    /// Every row, sorted, so the plugin's row order does not matter.
    std::vector<RowText> sortedRows() const;
    int batches() const { return batches_; }

private:
    std::vector<std::string> names_;
    std::vector<TdgValueKind> kinds_;
    std::vector<RowText> rows_;
    int batches_ = 0;
};

/// Throws CaseFailure naming the first difference; `what` prefixes the message.
void requireSameRows(const std::string& what, const std::vector<RowText>& expected,
                     const std::vector<RowText>& actual);

/// "[1, "a", null]" for messages (the first twelve values of a longer row, and the count).
std::string rowDisplay(const RowText& row);

}  // namespace tapdiffgen::conformance

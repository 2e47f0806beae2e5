// The widest row a session has read from each table, which says whether a statement's whole
// result may be buffered. libpq holds a statement's whole result before handing over its
// first row unless single-row mode is asked for, which costs a result object per row; so a
// pipelined re-pull (pipeline.hpp) whose rows could together exceed kBufferedResultBytes, or
// whose table the session has not read yet, streams row by row, and the others are buffered.
// Rows of 1 MiB in pages spanning two tables then cost a few rows of memory, not a statement's.
#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>

namespace tapdiffgen::postgres {

class ResultWidths {
public:
    /// Most a buffered result of a statement may take.
    static constexpr size_t kBufferedResultBytes = 8u << 20;

    /// Whether `rows` rows of `table` fit kBufferedResultBytes, by the widest row seen so far;
    /// false for a table not read yet.
    bool fitsBuffer(const std::string& table, size_t rows) const;
    void noteRow(const std::string& table, size_t bytes);

private:
    std::unordered_map<std::string, size_t> widest_;
};

}  // namespace tapdiffgen::postgres

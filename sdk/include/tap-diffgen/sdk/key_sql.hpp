// SQL for composite keys that every dialect words alike: the condition "after this key, in key
// order" spelled out column by column.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace tapdiffgen::sdk {

/// `a > ? OR (a = ? AND b > ?) OR (a = ? AND b = ? AND c > ?)`: the rows after one key in the
/// order of its columns. For planners that turn such prefixes into index ranges but read the
/// whole index for a row-value comparison `(a, b, c) > (?, ?, ?)` (MariaDB); where the row
/// value is planned well (PostgreSQL, SQLite) that is the simpler form.
struct KeysetCondition {
    std::string sql;
    /// Per placeholder, in order: which key column's value it takes.
    std::vector<size_t> keyColumnOfPlaceholder;
};

/// quotedKeyColumns: the key's columns, already quoted, in key order; placeholder(n): the text
/// of the n-th placeholder (0-based), e.g. "?" or "$" + std::to_string(n + 2).
KeysetCondition keysetAfter(const std::vector<std::string>& quotedKeyColumns,
                            const std::function<std::string(size_t)>& placeholder);

}  // namespace tapdiffgen::sdk

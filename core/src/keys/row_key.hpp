// Primary-key values in one canonical text form, so a diffgen table_id ("007", "ABC-uuid",
// "[1001, \"A-7\"]") and the key the re-pull returns (7, "abc-uuid", the cells 1001 and "A-7")
// are recognised as the same row.
//
// A one-column key's canonical form is its value's text (digits without leading zeros for
// numbers, lower case for uuid). A composite key's is the JSON array of its columns' canonical
// values in key order, numbers bare and other values as JSON strings: `[1001,"A-7"]`.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "keys/key_spec.hpp"
#include "tap-diffgen/dialect_abi.h"

namespace tapdiffgen::core {

/// A row's primary key in canonical form: the text rows are matched by, and each key
/// column's value (the texts the driver binds, and the values a tombstone carries).
class RowKey {
public:
    RowKey() = default;
    /// A one-column key: its value is its text.
    explicit RowKey(std::string canonical) : canonical_(std::move(canonical)) {}
    /// A composite key: the JSON array of `columns` (row_key.hpp), and the values themselves.
    RowKey(std::string canonical, std::vector<std::string> columns)
        : canonical_(std::move(canonical)), columns_(std::move(columns)) {}

    const std::string& canonical() const { return canonical_; }
    size_t columnCount() const { return columns_.empty() ? 1 : columns_.size(); }
    /// Key column c's canonical value.
    std::string_view column(size_t c) const {
        return columns_.empty() ? std::string_view(canonical_) : std::string_view(columns_[c]);
    }

private:
    std::string canonical_;
    // A composite key's values; a one-column key keeps its one value once, in canonical_.
    std::vector<std::string> columns_;
};

/// Reads a diffgen table_id as a key of `key`; nullopt with *why set when it cannot be one.
std::optional<RowKey> parseTableId(std::string_view tableId, const KeySpec& key, std::string& why);

/// Canonical form of one column's value given as text; nullopt when the text cannot be a value
/// of that column.
std::optional<std::string> normalizeKeyText(std::string_view text, const KeyColumn& column);

/// The canonical key of a re-pulled row: the cells of the key columns, in key order.
std::string canonicalKeyOfRow(const TdgCell* cells, const std::vector<size_t>& keyPositions,
                              const KeySpec& key);

/// Writes one column's canonical value as the JSON value the column's kind calls for.
void appendKeyJson(std::string& out, TdgValueKind kind, std::string_view canonicalValue);

}  // namespace tapdiffgen::core

// Primary-key values in one canonical text form, so a diffgen table_id ("007", "ABC-uuid",
// "[1001, \"A-7\"]") and the key the re-pull returns (7, "abc-uuid", the cells 1001 and "A-7")
// are recognised as the same row.
//
// A one-column key's canonical form is its value's canonical text (keys/key_text.hpp,
// dialect_abi.h "Key texts"). A composite key's is the JSON array of its columns' canonical
// values in key order, numbers and booleans bare, other values JSON strings: `[1001,"A-7"]`.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "keys/key_spec.hpp"
#include "keys/key_text.hpp"
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

/// Why a diffgen table_id is not a key of its stream.
struct KeyReadFailure {
    /// The key column whose value is wrong, or -1 when the text is no key at all (a composite
    /// key that is not a JSON array of as many values as columns).
    int column = -1;
    KeyTextFault fault = KeyTextFault::Unreadable;
    /// That column's value as journalled.
    std::string value;
    /// For column -1: what is wrong with the text.
    std::string why;

    /// "journals key '12.3456' for column 'code' (numeric(12,3)), which that column cannot
    /// hold".
    std::string describe(std::string_view tableId, const KeySpec& key) const;
};

/// Reads a diffgen table_id as a key of `key`; nullopt with *failure set when it cannot be one.
std::optional<RowKey> parseTableId(std::string_view tableId, const KeySpec& key,
                                   KeyReadFailure& failure);

/// The canonical key of a re-pulled row: the cells of the key columns, in key order.
std::string canonicalKeyOfRow(const TdgCell* cells, const std::vector<size_t>& keyPositions,
                              const KeySpec& key);

}  // namespace tapdiffgen::core

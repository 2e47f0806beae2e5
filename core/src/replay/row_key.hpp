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

#include "plugin/key_spec.hpp"
#include "tap-diffgen/dialect_abi.h"

namespace tapdiffgen::core {

/// A key read from diffgen.table_id.
struct ParsedKey {
    std::string canonical;
    /// Composite keys only: each column's canonical value, in key order (the texts the driver
    /// binds, and the values a tombstone carries). Empty for a one-column key.
    std::vector<std::string> parts;
};

/// Reads a diffgen table_id as a key of `key`; nullopt with *why set when it cannot be one.
std::optional<ParsedKey> parseTableId(std::string_view tableId, const KeySpec& key,
                                      std::string& why);

/// Canonical form of one column's value given as text; nullopt when the text cannot be a value
/// of that column.
std::optional<std::string> normalizeKeyText(std::string_view text, const KeyColumn& column);

/// The canonical key of a re-pulled row: the cells of the key columns, in key order.
std::string canonicalKeyOfRow(const TdgCell* cells, const std::vector<size_t>& keyPositions,
                              const KeySpec& key);

/// Writes one column's canonical value as the JSON value the column's kind calls for.
void appendKeyJson(std::string& out, TdgValueKind kind, std::string_view canonicalValue);

}  // namespace tapdiffgen::core

// Primary-key values in one canonical text form, so a diffgen table_id ("007", "ABC-uuid")
// and the key the re-pull returns (7, "abc-uuid") are recognised as the same row.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "tap-diffgen/dialect_abi.h"

namespace tapdiffgen::core {

/// Canonical form of a diffgen table_id for a key column of `kind` (and `format`, e.g.
/// "uuid", from its schema); nullopt when table_id cannot be a value of that column.
std::optional<std::string> normalizeKeyText(std::string_view tableId, TdgValueKind kind,
                                            bool caseInsensitive);

/// Canonical form of a key cell that a re-pull returned.
std::string normalizeKeyCell(const TdgCell& cell, bool caseInsensitive);

/// Writes a canonical key as the JSON value the column's kind calls for.
void appendKeyJson(std::string& out, TdgValueKind kind, std::string_view normalizedKey);

}  // namespace tapdiffgen::core

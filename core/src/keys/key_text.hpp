// The canonical text of one key value (dialect_abi.h, "Key texts"): what a trigger journals in
// diffgen.table_id, what the host matches re-pulled rows by, and what it sends a driver to
// fetch. Reading is lenient, so journals written by older triggers keep replaying (PostgreSQL's
// `to_jsonb(k) #>> '{}'` texts such as `\x0102` and `2024-01-01T10:00:00.12`, MySQL's
// `CAST(k AS CHAR)` texts such as `2024-01-01 10:00:00.123456`); writing is exact.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "keys/key_spec.hpp"
#include "tap-diffgen/dialect_abi.h"

namespace tapdiffgen::core {

/// Why a text is not a key value of a column.
enum class KeyTextFault {
    /// Not a value of the column's kind at all ("abc" for an integer, "0x1" for bytes).
    Unreadable,
    /// A value of the kind, but not one the column can hold: more decimals than its scale, a
    /// fraction of a second finer than its fractional digits, out of range.
    CannotHold,
};

/// The canonical text of `text` read as a value of `column`; nullopt with *fault set when it
/// is none.
std::optional<std::string> canonicalKeyText(std::string_view text, const KeyColumn& column,
                                            KeyTextFault* fault = nullptr);

/// The canonical text of a re-pulled cell of `column`: the same value as a journalled key
/// gives. A cell that has none (a driver's odd text) keeps its own text, which then matches
/// no journalled key, as before.
std::string canonicalCellText(const TdgCell& cell, const KeyColumn& column);

/// A column's canonical value as a member of the composite key's JSON array: numbers and
/// booleans bare, everything else a JSON string.
void appendCanonicalJson(std::string& out, TdgValueKind kind, std::string_view canonical);

/// A column's canonical value as a record writes that column's cells (a tombstone's key then
/// looks as the row's did, and fits the stream's SCHEMA): a TIMESTAMP with `+00:00`, a BOOL
/// `true`/`false`, numbers bare, the rest JSON strings.
void appendKeyJson(std::string& out, TdgValueKind kind, std::string_view canonical);

}  // namespace tapdiffgen::core

// The SQLite key codec: which declared types can be a key (TdgColumn.key_support) and how a
// canonical key text (dialect_abi.h, "Key texts") is bound. SQLite keeps any value in any
// column, in the form it was given, so only kinds whose canonical text is the stored value
// (integers, text, dates as YYYY-MM-DD) or a bound value SQLite compares exactly (blobs from
// their hex) can be keys; the README's "Keys" table lists them.
#pragma once

#include <cstdint>
#include <string_view>

#include "statement.hpp"
#include "tap-diffgen/dialect_abi.h"

namespace tapdiffgen::sqlite {

/// TDG_KEY_SUPPORT_* for a column of `kind`.
uint8_t keySupportOf(TdgValueKind kind);

/// Binds a key text as a value of a key column of `kind`: integers as integers (the comparison
/// then never depends on affinity), blobs from their hex, the rest as text.
void bindKey(Cursor& cursor, int index, std::string_view key, TdgValueKind kind);

}  // namespace tapdiffgen::sqlite

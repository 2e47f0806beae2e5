// The PostgreSQL key codec: which column types can be a key (TdgColumn.key_support) and how a
// canonical key text (dialect_abi.h, "Key texts") becomes the input text of the key's type.
// The README's "Keys" table lists both.
#pragma once

#include <string>
#include <string_view>

#include "catalog.hpp"
#include "types.hpp"

namespace tapdiffgen::postgres {

/// Fills info.keySupport, and for a time or timestamp info.scale (its fractional digits).
void describeKeyUse(const TypeFacts& facts, const TypeMapping& mapping, sdk::ColumnInfo& info);

/// Whether key texts of `column` need keyInputText (bytea); the others bind as they are.
bool keyNeedsInputText(const PgColumn& column);

/// The text `column`'s type reads for the canonical key text `canonical`: a bytea from its hex.
std::string keyInputText(const PgColumn& column, std::string_view canonical);

}  // namespace tapdiffgen::postgres

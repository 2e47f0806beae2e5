// The MySQL/MariaDB key codec: which column types can be a key (TdgColumn.key_support) and how
// a canonical key text (dialect_abi.h, "Key texts") is bound, or written into a text query, as
// a value of the key column's type: integers and BIT as integers, binary strings from their
// hex, dates and times from their fields. The README's "Keys" table lists both.
#pragma once

#include <mysql.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "params.hpp"
#include "tap-diffgen/sdk/types.hpp"
#include "types.hpp"

namespace tapdiffgen::mysql {

/// Fills info.keySupport, and for a date-time or time info.scale (its fractional digits).
void describeKeyUse(const CatalogType& type, sdk::ColumnInfo& info);

/// Binds a key text as a value of `keyField`'s type (so the primary key index serves the
/// lookup without conversions). Throws TDG_INVALID_DATA, naming the column, for a text that is
/// no value of that type.
void bindKey(Params& params, std::string_view key, const FieldInfo& keyField,
             std::string_view columnName);

/// Appends a key text to a text query as a literal of the key column's type, as bindKey binds
/// it: integers bare, binary strings as X'...', others a quoted string escaped by the client
/// library for the connection's character set.
void appendKeyLiteral(std::string& sql, MYSQL* connection, std::string_view key,
                      const FieldInfo& keyField, std::string_view columnName);

/// An ENUM or SET column's labels in their order, read from its COLUMN_TYPE
/// ("enum('sad','ok')"); empty for any other type. ORDER BY sorts such a key by its number
/// while a comparison with a string compares text, so a keyset read compares numbers.
std::vector<std::string> orderedLabels(std::string_view columnType);

/// The number of an ENUM label (1-based) or of a SET value (its bits); nullopt when `text` is
/// none of the labels.
std::optional<uint64_t> labelNumber(std::string_view text, const std::vector<std::string>& labels,
                                    bool isSet);

}  // namespace tapdiffgen::mysql

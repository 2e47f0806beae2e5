// Value and schema helpers shared by every dialect driver: one definition of each text form the
// ABI promises (see TdgValueKind), so drivers never re-implement them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "tap-diffgen/dialect_abi.h"

namespace tapdiffgen::sdk {

/// JSON Schema (without null) for a column of `kind`; `scale` >= 0 adds multipleOf 10^-scale to
/// DECIMAL columns. Extra keywords (e.g. "format") follow the kind's convention:
/// DATE → format date, TIME → format time, TIMESTAMP(TZ) → format date-time,
/// BYTES → contentEncoding base16, JSON → no type restriction.
std::string jsonSchemaForKind(TdgValueKind kind, int scale = -1);

/// "0.0001" for scale 4, "1" for scale 0.
std::string multipleOfForScale(int scale);

/// Shortest text that reads back as the same double; nullopt for NaN and ±Infinity.
std::optional<std::string> formatDouble(double value);

/// Appends a server timestamp text ("2024-02-29 13:14:15.5+00", "2024-02-29 13:14:15") in the
/// ABI's form: 'T' separator, offsets as "+HH:MM". Returns false when `text` is not a finite
/// timestamp (e.g. "infinity"), leaving `out` unchanged.
bool appendIsoTimestamp(std::string_view text, std::string& out);

/// True when `text` is a JSON number literal (rejects NaN, Infinity, empty, "+1", "01").
bool isJsonNumber(std::string_view text);

/// Quotes an identifier by doubling `quote` inside it: quoteIdentifier("a\"b", '"') → "a""b".
std::string quoteIdentifier(std::string_view name, char quote);

/// Quoted "schema"."name" (or just "name" when there is no schema).
std::string quoteTableName(const std::optional<std::string>& schema, std::string_view name,
                           char quote);

}  // namespace tapdiffgen::sdk

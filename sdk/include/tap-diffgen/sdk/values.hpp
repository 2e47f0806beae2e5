// Value and schema helpers shared by every dialect driver: one definition of each text form the
// ABI promises (see TdgValueKind), so drivers never re-implement them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "tap-diffgen/dialect_abi.h"

namespace tapdiffgen::sdk {

/// JSON Schema (without null) for a column of `kind`; `scale` >= 0 adds multipleOf 10^-scale to
/// DECIMAL columns, for a column whose values have at most kLargestCheckedPrecision digits (a
/// driver that knows the precision uses jsonSchemaForDecimal). Extra keywords (e.g. "format")
/// follow the kind's convention: DATE → format date, TIMESTAMP(TZ) → format date-time,
/// BYTES → contentEncoding base16, JSON → no type restriction, TIME → a plain string (a time
/// without zone, or MySQL's duration: JSON Schema's format time requires an offset; a time
/// with time zone passes format "time" to the three-argument form).
std::string jsonSchemaForKind(TdgValueKind kind, int scale = -1);

/// The most digits a multipleOf 10^-scale may be checked against: a consumer on Python's
/// default decimal context (28 digits: jsonschema, singer-python, singer-check-tap) raises
/// DivisionImpossible for `value % 10^-scale` once the quotient has more digits. Since SDK 0.2.0.
constexpr int kLargestCheckedPrecision = 28;

/// The schema of a DECIMAL column of `precision` digits in all (-1: unknown or unbounded) and
/// `scale` decimals (-1: none declared): {"type":"number"}, with multipleOf 10^-scale only when
/// both are declared and precision <= kLargestCheckedPrecision, so that every consumer can check
/// it. Wider columns keep their scale in the values' digits alone. Since SDK 0.2.0.
std::string jsonSchemaForDecimal(int precision, int scale);

/// The same with a "format" keyword, e.g. (TDG_KIND_TEXT, -1, "uuid") →
/// {"type":"string","format":"uuid"}; it replaces the kind's own format (DATE's "date", ...).
/// An empty format is the two-argument schema. Since SDK 0.2.0.
std::string jsonSchemaForKind(TdgValueKind kind, int scale, std::string_view format);

/// "0.0001" for scale 4, "1" for scale 0.
std::string multipleOfForScale(int scale);

/// Shortest text that reads back as the same double; nullopt for NaN and ±Infinity.
std::optional<std::string> formatDouble(double value);

/// Shortest text that reads back as the same single-precision float, for a column that holds
/// floats (MySQL FLOAT, PostgreSQL real, ODBC's SQL_REAL): 0.1f is "0.1" and 3.4028235e38f
/// "3.4028235e+38", where formatDouble of the same value widened to double gives
/// "0.10000000149011612". nullopt for NaN and ±Infinity. Since SDK 0.2.0.
std::optional<std::string> formatFloat(float value);

/// Appends a server timestamp text ("2024-02-29 13:14:15.5+00", "2024-02-29 13:14:15") in the
/// ABI's form: 'T' separator, fraction padded or cut to six digits, offsets as "+HH:MM" ("Z"
/// as "+00:00", seconds kept). Returns false, leaving `out` unchanged, when `text` is not a
/// finite timestamp of years 0000 to 9999: "infinity", "-infinity", a year of five digits, a
/// BC date ("0044-03-15 12:00:00 BC", "9999-01-01 00:00:00 BC+00"), a day the month does not
/// have ("2024-02-30", zero dates), hour 24 or more, minute or second 60 or more, an offset of a
/// day or more, or anything after the offset. (Strict since SDK 0.2.0.)
bool appendIsoTimestamp(std::string_view text, std::string& out);

/// True when `text` is a JSON number literal (rejects NaN, Infinity, empty, "+1", "01").
bool isJsonNumber(std::string_view text);

/// A decimal number as a client spells it, as the JSON number literal DECIMAL needs, with the
/// same digits: ".5" → "0.5", "+1" → "1", "-.5" → "-0.5", "1." → "1", "007.50" → "7.50",
/// "1.E+3" → "1E+3". Throws DriverError(TDG_INVALID_DATA) naming `what` when `text` is not a
/// number (empty, "NaN", "1,5", "0x10", spaces). Since SDK 0.2.0.
std::string jsonNumberFromDecimal(std::string_view text, const std::string& what = "a decimal");

/// Quotes an identifier by doubling `quote` inside it: quoteIdentifier("a\"b", '"') → "a""b".
std::string quoteIdentifier(std::string_view name, char quote);

/// Quoted "schema"."name" (or just "name" when there is no schema).
std::string quoteTableName(const std::optional<std::string>& schema, std::string_view name,
                           char quote);

}  // namespace tapdiffgen::sdk

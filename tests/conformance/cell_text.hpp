// Values as comparable text. A cell from the plugin and a value from expected.json become the
// same text exactly when a consumer of the tap's records reads the same value: decimals with
// their digits as written, scale included ("1.50" is not "1.5": a SCHEMA's multipleOf and a
// target's column see the text), only an exponent moved into the digits (a float's "1e-09" is
// "0.000000001"; scientific past 40 characters), times without a zero fraction (the ABI lets
// a plugin pad fractions to microseconds), bytes as lowercase hex (expected.json writes them so
// too), JSON documents by meaning (members sorted, no white space, numbers as decimals; in
// expected.json a document is the string of its text), text JSON-quoted. A cell whose text
// breaks the ABI's form for its kind, or whose fields no calendar or clock has (2024-02-30,
// 25:61:00, year 10000), renders as "invalid <kind> ..." so the comparison shows it.
#pragma once

#include <Poco/Dynamic/Var.h>

#include <string>
#include <string_view>

#include "support/exact_json.hpp"
#include "tap-diffgen/dialect_abi.h"

namespace tapdiffgen::conformance {

std::string cellText(const TdgCell& cell);

/// An expected.json value for a column of `kind` (null, true, 42, "text", "12.5").
std::string expectedText(const Poco::Dynamic::Var& value, TdgValueKind kind);

/// The same for a value read exactly (numbers as written: -9223372036854775808, 1.50). A text
/// too long to write out is {"repeat": "ab", "times": 524288}: "ab" 524288 times.
std::string expectedText(const testing::ExactJson& value, TdgValueKind kind);

/// "int64", "decimal", ...: the names expected.json uses for kinds.
std::string kindName(TdgValueKind kind);
/// The kind named `name`; throws std::invalid_argument when unknown.
TdgValueKind kindFromName(const std::string& name);

/// Digits after the decimal point of a decimal cell's text ("1.50" → 2, "1e-7" → 7, "5" → 0).
int decimalPlaces(std::string_view text);

/// Normalisations shared by both sides (exposed for the diffgen timestamps).
std::string canonicalDecimal(std::string_view text);
std::string withoutZeroFraction(std::string_view text);

}  // namespace tapdiffgen::conformance

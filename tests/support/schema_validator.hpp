// A strict validator of the JSON Schema subset tap-diffgen's SCHEMA messages use, so that tests
// assert what a validating target would: type, format (date, date-time, time, uuid),
// multipleOf, maxLength, items, anyOf, required, properties, and contentEncoding, title,
// description and $comment (annotations, not checked). A keyword outside the subset is itself a
// violation: a schema the tap starts to write in another shape cannot pass unchecked. Numbers are
// judged as written (ExactJson), so multipleOf 0.00000001 decides exactly for 38 digits.
//
// Formats follow RFC 3339 (JSON Schema's reference for them), stricter where the tap never
// writes the looser form:
//   date       full-date, YYYY-MM-DD, a day its month has (years 0000 to 9999);
//   date-time  full-date "T" full-time: the offset (Z or +HH:MM) required;
//   time       full-time, as strict Draft 7 validators check it: HH:MM:SS[.frac] and the
//              offset (Z or +HH:MM) required, hours 00 to 23. A time without zone therefore
//              has no format time: the tap writes it as a plain string (sdk/value-kinds.md).
//   uuid       8-4-4-4-12 hexadecimal digits.
// Leap seconds (:60) are refused: no database the tap reads stores one.
#pragma once

#include <string>
#include <vector>

#include "support/exact_json.hpp"

namespace tapdiffgen::testing {

/// What makes `instance` invalid under `schema`, one line each naming where
/// ("record.a: '24:00:00.000000' is not a time"); empty when it is valid. `where` prefixes
/// the paths.
std::vector<std::string> schemaViolations(const ExactJson& schema, const ExactJson& instance,
                                          const std::string& where = "record");

/// The members of `record` that `schema` (an object schema) has no property for: valid JSON
/// Schema, but a column a SCHEMA did not announce.
std::vector<std::string> undeclaredMembers(const ExactJson& schema, const ExactJson& record);

/// Every problem of a tap's output, one line each: each RECORD checked against the latest
/// SCHEMA of its stream before it (a RECORD before any SCHEMA of its stream is a problem), and
/// for undeclared members. `lines`: stdout, one message a line.
std::vector<std::string> outputViolations(const std::vector<std::string>& lines);

}  // namespace tapdiffgen::testing

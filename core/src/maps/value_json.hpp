// Expression values to and from JSON. JSON text (a record's JSON column, stream_map_config) is
// read by Poco's parser, as every JSON of the tap; values are written by one writer in the two
// layouts the SDK writes them in.
#pragma once

#include <Poco/Dynamic/Var.h>

#include <string>
#include <string_view>

#include "maps/value.hpp"

namespace tapdiffgen::core::maps {

enum class JsonLayout {
    /// As the SDK's message writer puts a value into a RECORD: compact, UTF-8 as it is, NaN and
    /// infinities as null. A decimal keeps the digits the database wrote.
    Record,
    /// As Python's json.dumps(value) writes it (flattening's JSON text): ", " and ": " between
    /// members, non-ASCII as \uXXXX, a decimal as the float the SDK would hold, NaN as NaN.
    PythonDumps,
};

void appendJson(std::string& out, const Value& value, JsonLayout layout);

/// Python's repr() of a finite float, which is also its JSON text.
void appendFloatRepr(std::string& out, double value);

/// A JSON document (also a bare scalar) as Python's json.loads reads it: objects as dicts in
/// document order (a repeated key keeps its first place and its last value), integers as int,
/// other numbers as float. Throws EvalError when the text is not JSON, or nests deeper than
/// kMaxJsonDepth.
Value parseJsonValue(std::string_view text);

/// A value of the configuration (stream_map_config) as an expression value; empty is None.
Value valueFromJson(const Poco::Dynamic::Var& json);

}  // namespace tapdiffgen::core::maps

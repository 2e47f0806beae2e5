// The JSON value model every part of the engine shares (Poco's), with its helpers: parsing with
// clean one-line messages, writing in the layout Python's json.dumps uses (so --about output
// looks like an SDK tap's), and Python-style reprs of values for messages shaped like the
// jsonschema library's and Python's own.
#pragma once

#include <Poco/Dynamic/Var.h>
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace tapdiffgen::core {

/// A JSON document or a part of one, as Poco's parser gives it: what the configuration, the
/// catalog, the state and the stream maps read before they turn it into types.
using JsonValue = Poco::Dynamic::Var;

}  // namespace tapdiffgen::core

namespace tapdiffgen::core::jsonvalue {

/// Malformed JSON text; what() is the parser's one-line message.
class JsonSyntaxError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

enum class Kind { Null, Boolean, Integer, Number, String, Array, Object };

/// The JSON kind of a value produced by parse() or built from Poco JSON types. Integer means
/// an integral JSON number written without fraction or exponent; Number is any other number.
Kind kindOf(const JsonValue& value);

/// Whether the value satisfies a JSON Schema type name ("string", "integer", ...), with
/// draft-7 semantics: 3.0 is an integer, true is not a number.
bool matchesType(const JsonValue& value, std::string_view schemaType);

/// The value as a 64-bit integer when it is an integral number in range, else nullopt.
std::optional<std::int64_t> toInt64(const JsonValue& value);

/// Parses any JSON text (also a bare scalar) with object keys in document order.
/// Throws JsonSyntaxError.
JsonValue parse(const std::string& text);

/// Compact JSON (no spaces), non-ASCII escaped as \uXXXX.
std::string write(const JsonValue& value);

/// JSON as Python's json.dumps(value, indent=indent) writes it.
std::string writePretty(const JsonValue& value, int indent = 2);

/// A JSON string literal, ASCII only.
std::string quote(std::string_view text);

/// Python's repr() of the value (True, None, 'text', [1, 2], {'k': 'v'}), cut to maxLength
/// characters with a trailing "..." when longer.
std::string pythonRepr(const JsonValue& value, std::size_t maxLength = 80);

/// Python's str() of a scalar: strings bare, True/False/None, numbers as repr.
std::string pythonStr(const JsonValue& value);

/// A scalar as a plugin option: strings as they are, numbers and booleans as JSON text.
std::string scalarText(const JsonValue& value);

/// Python's repr() of a float, which is also what json.dumps writes for it.
std::string formatDouble(double value);

}  // namespace tapdiffgen::core::jsonvalue

// Stream-map expressions: the subset of Python that simpleeval's EvalWithCompoundTypes accepts,
// as the Meltano Singer SDK evaluates `stream_maps`. An expression is parsed and every name,
// function, method and attribute resolved once, at start-up; evaluating it walks the compiled
// tree.
//
// The parts: lexer (tokens, string literals), parser (the grammar, into ast.hpp's tree),
// evaluator (the walk), operators (Python's operators on values) and builtins (functions,
// methods and attributes, one file per kind).
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "maps/value.hpp"

namespace tapdiffgen::core::maps {

/// An expression that cannot be compiled; what() says why ("syntax error at position 4: ...").
class ExpressionError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// What names an expression may use.
struct Scope {
    std::vector<std::string> properties;  ///< the input record's properties, by slot
    std::optional<size_t> selfSlot;       ///< the property being mapped, when the record has it
    Value config;                         ///< stream_map_config
};

/// Where a compiled expression reads the current record from.
class RecordSource {
public:
    virtual ~RecordSource() = default;
    virtual const Value& property(size_t slot) = 0;
    /// The whole record as a dict (for `record` and `_`).
    virtual const Value& record() = 0;
};

struct Node;

class Expression {
public:
    /// What reads no record is computed here, once. Throws ExpressionError: a syntax error, an
    /// unknown name, nesting past limits.hpp's bound, or the error an expression that reads no
    /// record would raise on every record.
    static Expression compile(std::string_view text, const Scope& scope);

    /// Python's result. An operation that Python rejects because an operand is None gives None
    /// (deletes carry nulls); any other failure throws EvalError with Python's message
    /// (MemoryError where memory runs out).
    Value evaluate(RecordSource& source) const;

    /// The slot when the expression is just a property's name (passed through untouched).
    std::optional<size_t> plainProperty() const { return plainProperty_; }
    /// Whether the expression reads the whole record.
    bool usesRecord() const { return usesRecord_; }

private:
    std::shared_ptr<const Node> root_;
    std::optional<size_t> plainProperty_;
    bool usesRecord_ = false;
};

}  // namespace tapdiffgen::core::maps

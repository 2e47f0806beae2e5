// Evaluates a compiled tree on one record: a walk of the tree, each node's operands first, in
// Python's order, with `and`, `or` and the conditional evaluating only what Python evaluates.
#pragma once

#include "maps/ast.hpp"
#include "maps/expression.hpp"

namespace tapdiffgen::core::maps {

class Evaluator {
public:
    explicit Evaluator(RecordSource& source) : source_(source) {}

    /// Throws EvalError and NullOperand.
    Value eval(const Node& node);

private:
    RecordSource& source_;

    // A leaf's value without copying it; anything else is evaluated into `scratch`.
    const Value& ref(const Node& node, Value& scratch);

    Value sequence(const Node& node);
    Value dict(const Node& node);
    Value logic(const Node& node);
    Value chain(const Node& node);
    Value comparison(const Node& node);
    Value conditional(const Node& node);
    Value subscript(const Node& node);
    Value method(const Node& node);
    Value function(const Node& node);
};

}  // namespace tapdiffgen::core::maps

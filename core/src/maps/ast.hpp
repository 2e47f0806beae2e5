// The compiled form of an expression: a tree whose names are already resolved (a property to its
// slot, a function, method or attribute to its implementations) and whose chains of one operator
// (`a or b or c`, `a + b - c`, `x if p else y if q else z`) are one node with many operands, so
// that a long chain neither nests deeply nor recurses when it is evaluated.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "maps/builtins.hpp"
#include "maps/operators.hpp"
#include "maps/value.hpp"

namespace tapdiffgen::core::maps {

enum class NodeKind {
    Constant,    ///< `constant`: a literal, `config`, or what a constant part computed to
    Property,    ///< the record's property at `slot` (also `self`)
    Record,      ///< the whole record, as a dict (`record`, `_`)
    List,        ///< [children...]
    Tuple,       ///< (children...)
    Dict,        ///< {children[0]: children[1], ...}
    Negate,      ///< -children[0]
    Positive,    ///< +children[0]
    Not,         ///< not children[0]
    Arithmetic,  ///< children[0] operators[0] children[1] operators[1] ... left to right
    And,         ///< children[0] and children[1] and ...
    Or,          ///< children[0] or children[1] or ...
    Compare,     ///< children[0] compares[0] children[1] compares[1] ... (Python's chaining)
    IfElse,      ///< children[1] if children[0] else children[3] if children[2] else ... last
    Subscript,   ///< children[0][children[1]]
    Slice,       ///< the start:stop:step of a subscript (None where left out)
    Attribute,   ///< children[0].attribute
    Method,      ///< children[0].method(children[1], ...)
    Function,    ///< function(children...), the last keywords.size() given by keyword
};

struct Node;
using NodePtr = std::unique_ptr<Node>;

struct Node {
    explicit Node(NodeKind k) : kind(k) {}

    NodeKind kind;
    std::vector<NodePtr> children;
    Value constant;
    size_t slot = 0;
    std::vector<BinaryOp> operators;
    std::vector<CompareOp> compares;
    const Function* function = nullptr;
    Keywords keywords;
    Method method;
    Attribute attribute;
};

}  // namespace tapdiffgen::core::maps

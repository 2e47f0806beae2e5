// Python's expression grammar, as far as simpleeval's EvalWithCompoundTypes allows it, parsed
// by recursive descent into the compiled tree (ast.hpp), every name resolved against the scope.
#pragma once

#include <vector>

#include "maps/ast.hpp"
#include "maps/expression.hpp"
#include "maps/lexer.hpp"

namespace tapdiffgen::core::maps {

struct ParsedExpression {
    NodePtr root;
    bool usesRecord = false;  ///< reads `record` or `_`
};

/// Throws ExpressionError.
ParsedExpression parse(const std::vector<Token>& tokens, const Scope& scope);

}  // namespace tapdiffgen::core::maps

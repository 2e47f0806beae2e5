#include "maps/expression.hpp"

#include "maps/evaluator.hpp"
#include "maps/lexer.hpp"
#include "maps/parser.hpp"

namespace tapdiffgen::core::maps {

Expression Expression::compile(std::string_view text, const Scope& scope) {
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
        throw ExpressionError("the expression is empty");
    }
    ParsedExpression parsed = parse(tokenize(text), scope);
    Expression expression;
    if (parsed.root->kind == NodeKind::Property) expression.plainProperty_ = parsed.root->slot;
    expression.usesRecord_ = parsed.usesRecord;
    expression.root_ = std::move(parsed.root);
    return expression;
}

Value Expression::evaluate(RecordSource& source) const {
    try {
        return Evaluator(source).eval(*root_);
    } catch (const NullOperand&) {
        return Value::null();
    }
}

}  // namespace tapdiffgen::core::maps

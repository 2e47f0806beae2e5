#include "maps/expression.hpp"

#include <new>
#include <stdexcept>

#include "maps/evaluator.hpp"
#include "maps/lexer.hpp"
#include "maps/parser.hpp"

namespace tapdiffgen::core::maps {
namespace {

// Where a constant part is evaluated: it reads no record.
class NoRecord : public RecordSource {
public:
    const Value& property(size_t) override { throw std::logic_error("a constant read a record"); }
    const Value& record() override { throw std::logic_error("a constant read a record"); }
};

// Python's MemoryError, where an expression asks for more memory than there is: the run stops
// with the usual line naming the expression rather than with std::bad_alloc.
template <typename Evaluation>
Value guarded(Evaluation evaluation) {
    try {
        return evaluation();
    } catch (const std::bad_alloc&) {
        throw EvalError("MemoryError");
    } catch (const std::length_error&) {
        throw EvalError("MemoryError");
    }
}

Value evaluateConstant(const Node& node) {
    NoRecord none;
    return guarded([&] { return Evaluator(none).eval(node); });
}

// Whether the node gives the same value for every record. Such a node becomes the constant it
// computes to, once, here; one that fails is left to fail when a record reaches it, if one does
// (it may stand in a branch that is never taken).
bool fold(NodePtr& node) {
    bool constant = true;
    for (auto& child : node->children) constant = fold(child) && constant;
    switch (node->kind) {
        case NodeKind::Constant:
            return true;
        case NodeKind::Property:
        case NodeKind::Record:
            return false;
        case NodeKind::Slice:
            return constant;  // computed with its subscript
        case NodeKind::Function:
            constant = constant && node->function->pure;
            break;
        default:
            break;
    }
    if (!constant) return false;
    try {
        Value value = evaluateConstant(*node);
        node = std::make_unique<Node>(NodeKind::Constant);
        node->constant = std::move(value);
    } catch (const EvalError&) {
    } catch (const NullOperand&) {
    }
    return true;
}

// An expression that is constant as a whole and fails would fail on every record: it is refused
// at start-up. One that Python rejects for a None operand is None, as on a record.
void foldWhole(NodePtr& root) {
    if (!fold(root) || root->kind == NodeKind::Constant) return;
    try {
        evaluateConstant(*root);
    } catch (const EvalError& e) {
        throw ExpressionError(e.what());
    } catch (const NullOperand&) {
        root = std::make_unique<Node>(NodeKind::Constant);
    }
}

}  // namespace

Expression Expression::compile(std::string_view text, const Scope& scope) {
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
        throw ExpressionError("the expression is empty");
    }
    ParsedExpression parsed = parse(tokenize(text), scope);
    foldWhole(parsed.root);
    Expression expression;
    if (parsed.root->kind == NodeKind::Property) expression.plainProperty_ = parsed.root->slot;
    expression.usesRecord_ = parsed.usesRecord;
    expression.root_ = std::move(parsed.root);
    return expression;
}

Value Expression::evaluate(RecordSource& source) const {
    try {
        return guarded([&] { return Evaluator(source).eval(*root_); });
    } catch (const NullOperand&) {
        return Value::null();
    }
}

}  // namespace tapdiffgen::core::maps

#include "maps/evaluator.hpp"

#include <algorithm>

namespace tapdiffgen::core::maps {

Value Evaluator::eval(const Node& node) {
    switch (node.kind) {
        case NodeKind::Constant:
            return node.constant;
        case NodeKind::Property:
            return source_.property(node.slot);
        case NodeKind::Record:
            return source_.record();
        case NodeKind::List:
        case NodeKind::Tuple:
            return sequence(node);
        case NodeKind::Dict:
            return dict(node);
        case NodeKind::Negate:
        case NodeKind::Positive: {
            Value scratch;
            return signedValue(ref(*node.children[0], scratch), node.kind == NodeKind::Negate);
        }
        case NodeKind::Not:
            return Value::fromBool(!truthy(eval(*node.children[0])));
        case NodeKind::And:
        case NodeKind::Or:
            return logic(node);
        case NodeKind::Arithmetic:
            return chain(node);
        case NodeKind::Compare:
            return comparison(node);
        case NodeKind::IfElse:
            return conditional(node);
        case NodeKind::Subscript:
            return subscript(node);
        case NodeKind::Slice:
            return Value::null();  // read by its Subscript
        case NodeKind::Attribute: {
            Value scratch;
            return readAttribute(node.attribute, ref(*node.children[0], scratch));
        }
        case NodeKind::Method:
            return method(node);
        case NodeKind::Function:
            return function(node);
    }
    return Value::null();
}

const Value& Evaluator::ref(const Node& node, Value& scratch) {
    if (node.kind == NodeKind::Property) return source_.property(node.slot);
    if (node.kind == NodeKind::Constant) return node.constant;
    scratch = eval(node);
    return scratch;
}

Value Evaluator::sequence(const Node& node) {
    ValueList items;
    items.reserve(node.children.size());
    for (const auto& child : node.children) items.push_back(eval(*child));
    return Value::list(std::move(items),
                       node.kind == NodeKind::List ? ValueType::List : ValueType::Tuple);
}

Value Evaluator::dict(const Node& node) {
    ValueDict entries;
    for (size_t i = 0; i + 1 < node.children.size(); i += 2) {
        Value key = eval(*node.children[i]);
        Value item = eval(*node.children[i + 1]);
        if (key.type == ValueType::List || key.type == ValueType::Dict) {
            typeError("unhashable type: '" + typeName(key) + "'");
        }
        auto existing = std::find_if(entries.begin(), entries.end(),
                                     [&](const auto& e) { return equals(e.first, key); });
        if (existing != entries.end()) {
            existing->second = std::move(item);
        } else {
            entries.emplace_back(std::move(key), std::move(item));
        }
    }
    return Value::dict(std::move(entries));
}

// The first operand that decides, as Python's `or` and `and` give it.
Value Evaluator::logic(const Node& node) {
    const bool stopWhen = node.kind == NodeKind::Or;
    Value value;
    for (const auto& operand : node.children) {
        value = eval(*operand);
        if (truthy(value) == stopWhen) break;
    }
    return value;
}

Value Evaluator::chain(const Node& node) {
    Value leftScratch, rightScratch;
    const Value& first = ref(*node.children[0], leftScratch);
    Value result = arithmetic(node.operators[0], first, ref(*node.children[1], rightScratch));
    for (size_t i = 1; i < node.operators.size(); ++i) {
        result = arithmetic(node.operators[i], result, ref(*node.children[i + 1], rightScratch));
    }
    return result;
}

Value Evaluator::comparison(const Node& node) {
    Value leftScratch, rightScratch;
    if (node.compares.size() == 1) {
        const Value& left = ref(*node.children[0], leftScratch);
        const Value& right = ref(*node.children[1], rightScratch);
        return Value::fromBool(compare(node.compares[0], left, right));
    }
    Value left = eval(*node.children[0]);
    for (size_t i = 0; i < node.compares.size(); ++i) {
        Value right = eval(*node.children[i + 1]);
        if (!compare(node.compares[i], left, right)) return Value::fromBool(false);
        left = std::move(right);
    }
    return Value::fromBool(true);
}

Value Evaluator::conditional(const Node& node) {
    const size_t last = node.children.size() - 1;
    for (size_t i = 0; i < last; i += 2) {
        if (truthy(eval(*node.children[i]))) return eval(*node.children[i + 1]);
    }
    return eval(*node.children[last]);
}

Value Evaluator::subscript(const Node& node) {
    Value scratch;
    const Value& object = ref(*node.children[0], scratch);
    const Node& index = *node.children[1];
    if (index.kind == NodeKind::Slice) {
        return slice(object, eval(*index.children[0]), eval(*index.children[1]),
                     eval(*index.children[2]));
    }
    return maps::subscript(object, eval(index));
}

Value Evaluator::method(const Node& node) {
    Value scratch;
    const Value& object = ref(*node.children[0], scratch);
    Arguments args;
    args.reserve(node.children.size() - 1);
    for (size_t i = 1; i < node.children.size(); ++i) args.push_back(eval(*node.children[i]));
    return callMethod(node.method, object, args);
}

Value Evaluator::function(const Node& node) {
    const Function& function = *node.function;
    if (node.children.size() == 1 && function.unary != nullptr) {
        Value scratch;
        return function.unary(ref(*node.children[0], scratch));
    }
    Arguments args;
    args.reserve(node.children.size());
    for (const auto& child : node.children) args.push_back(eval(*child));
    return function.call(args, node.keywords);
}

}  // namespace tapdiffgen::core::maps

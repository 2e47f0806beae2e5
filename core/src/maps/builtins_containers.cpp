// What works on containers: len, min and max, dict's get/keys/values/items, and the index and
// count of lists and tuples.
#include "maps/builtins.hpp"
#include "maps/code_points.hpp"
#include "maps/operators.hpp"

namespace tapdiffgen::core::maps {
namespace {

Value lenCall(const Arguments& args, const Keywords&) {
    argumentCount(args, 1, 1, "len");
    const Value& v = args[0];
    switch (v.type) {
        case ValueType::Null:
            throw NullOperand{};
        case ValueType::String:
            return Value::fromInt(static_cast<int64_t>(characterCount(v.text)));
        case ValueType::List:
        case ValueType::Tuple:
            return Value::fromInt(static_cast<int64_t>(v.items->size()));
        case ValueType::Dict:
            return Value::fromInt(static_cast<int64_t>(v.entries->size()));
        default:
            typeError("object of type '" + typeName(v) + "' has no len()");
    }
}

// min(a, b, ...) or min(sequence): the first of the smallest, as Python keeps it.
Value extreme(const Arguments& args, bool wantMax) {
    const char* name = wantMax ? "max" : "min";
    if (args.empty()) typeError(std::string(name) + " expected at least 1 argument, got 0");
    const ValueList* items = &args;
    if (args.size() == 1) {
        if (args[0].isNull()) throw NullOperand{};
        if (!args[0].isSequence()) typeError("'" + typeName(args[0]) + "' object is not iterable");
        items = args[0].items.get();
    }
    if (items->empty()) valueError(std::string(name) + "() arg is an empty sequence");
    const CompareOp better = wantMax ? CompareOp::Greater : CompareOp::Less;
    const Value* best = &items->front();
    for (size_t i = 1; i < items->size(); ++i) {
        if (compare(better, (*items)[i], *best)) best = &(*items)[i];
    }
    return *best;
}

Value minCall(const Arguments& args, const Keywords&) { return extreme(args, false); }
Value maxCall(const Arguments& args, const Keywords&) { return extreme(args, true); }

Value dictGet(const Value& self, const Arguments& args) {
    argumentCount(args, 1, 2, "get");
    for (const auto& entry : *self.entries) {
        if (equals(entry.first, args[0])) return entry.second;
    }
    return args.size() > 1 ? args[1] : Value::null();
}

// keys(), values() and items(), as lists (Python's views, as far as expressions can tell).
template <typename Pick>
Value dictView(const Value& self, const Arguments& args, const char* name, Pick pick) {
    argumentCount(args, 0, 0, name);
    ValueList out;
    for (const auto& entry : *self.entries) out.push_back(pick(entry));
    return Value::list(std::move(out));
}

Value dictKeys(const Value& self, const Arguments& args) {
    return dictView(self, args, "keys", [](const auto& entry) { return entry.first; });
}
Value dictValues(const Value& self, const Arguments& args) {
    return dictView(self, args, "values", [](const auto& entry) { return entry.second; });
}
Value dictItems(const Value& self, const Arguments& args) {
    return dictView(self, args, "items", [](const auto& entry) {
        return Value::list({entry.first, entry.second}, ValueType::Tuple);
    });
}

Value sequenceIndex(const Value& self, const Arguments& args) {
    argumentCount(args, 1, 1, "index");
    for (size_t i = 0; i < self.items->size(); ++i) {
        if (equals((*self.items)[i], args[0])) return Value::fromInt(static_cast<int64_t>(i));
    }
    valueError(repr(args[0]) + " is not in list");
}

Value sequenceCount(const Value& self, const Arguments& args) {
    argumentCount(args, 1, 1, "count");
    int64_t count = 0;
    for (const Value& item : *self.items) count += equals(item, args[0]) ? 1 : 0;
    return Value::fromInt(count);
}

constexpr Function kContainerFunctions[] = {
    // Beyond the SDK's functions.
    {"len", lenCall, nullptr, false, true},
    {"min", minCall, nullptr, false, true},
    {"max", maxCall, nullptr, false, true},
};

constexpr MethodEntry kContainerMethods[] = {
    {"get", Receiver::Dict, dictGet},
    {"keys", Receiver::Dict, dictKeys},
    {"values", Receiver::Dict, dictValues},
    {"items", Receiver::Dict, dictItems},
    {"index", Receiver::Sequence, sequenceIndex},
    {"count", Receiver::Sequence, sequenceCount},
};

}  // namespace

std::span<const Function> containerFunctions() { return kContainerFunctions; }
std::span<const MethodEntry> containerMethods() { return kContainerMethods; }

}  // namespace tapdiffgen::core::maps

#include "maps/builtins.hpp"

#include <initializer_list>

namespace tapdiffgen::core::maps {
namespace {

std::optional<Receiver> receiverOf(ValueType type) {
    switch (type) {
        case ValueType::String:
            return Receiver::String;
        case ValueType::Dict:
            return Receiver::Dict;
        case ValueType::List:
        case ValueType::Tuple:
            return Receiver::Sequence;
        case ValueType::DateTime:
            return Receiver::DateTime;
        case ValueType::Date:
            return Receiver::Date;
        case ValueType::TimeDelta:
            return Receiver::TimeDelta;
        default:
            return std::nullopt;
    }
}

size_t indexOf(Receiver receiver) { return static_cast<size_t>(receiver); }

[[noreturn]] void noAttribute(const Value& self, const std::string& name) {
    throw EvalError("AttributeError: '" + typeName(self) + "' object has no attribute '" + name +
                    "'");
}

// What `self`'s type has under the name (nullptr when nothing), None refused first.
template <typename Implementation>
Implementation forReceiver(const std::array<Implementation, kReceiverCount>& byReceiver,
                           const Value& self) {
    if (self.isNull()) throw NullOperand{};
    const std::optional<Receiver> receiver = receiverOf(self.type);
    return receiver ? byReceiver[indexOf(*receiver)] : nullptr;
}

// The implementations the tables list under `name`, by receiver; nullopt when none does.
template <typename Resolved, auto implementation, typename Entry>
std::optional<Resolved> gather(std::string_view name,
                               std::initializer_list<std::span<const Entry>> tables) {
    Resolved resolved{std::string(name), {}};
    bool found = false;
    for (const auto& table : tables) {
        for (const Entry& entry : table) {
            if (entry.name != name) continue;
            resolved.byReceiver[indexOf(entry.receiver)] = entry.*implementation;
            found = true;
        }
    }
    if (!found) return std::nullopt;
    return resolved;
}

}  // namespace

const Function* findFunction(std::string_view name) {
    for (const auto& table :
         {stringFunctions(), numberFunctions(), containerFunctions(), datetimeFunctions()}) {
        for (const Function& function : table) {
            if (function.name == name) return &function;
        }
    }
    return nullptr;
}

std::optional<Method> findMethod(std::string_view name) {
    return gather<Method, &MethodEntry::call>(
        name, {stringMethods(), containerMethods(), datetimeMethods()});
}

std::optional<Attribute> findAttribute(std::string_view name) {
    return gather<Attribute, &AttributeEntry::read>(name, {datetimeAttributes()});
}

Value callMethod(const Method& method, const Value& self, const Arguments& args) {
    const MethodCall call = forReceiver(method.byReceiver, self);
    if (call == nullptr) noAttribute(self, method.name);
    return call(self, args);
}

Value readAttribute(const Attribute& attribute, const Value& self) {
    const AttributeRead read = forReceiver(attribute.byReceiver, self);
    if (read == nullptr) noAttribute(self, attribute.name);
    return read(self);
}

void argumentCount(const Arguments& args, size_t least, size_t most, std::string_view name) {
    if (args.size() >= least && args.size() <= most) return;
    typeError(std::string(name) + "() takes " +
              (least == most ? std::to_string(least)
                             : std::to_string(least) + " to " + std::to_string(most)) +
              " argument(s) (" + std::to_string(args.size()) + " given)");
}

const std::string& stringArgument(const Arguments& args, size_t i, std::string_view method) {
    const Value& v = args[i];
    if (v.isNull()) throw NullOperand{};
    if (v.type != ValueType::String) {
        typeError(std::string(method) + "() argument must be str, not " + typeName(v));
    }
    return v.text;
}

int64_t integerArgument(const Value& v, std::string_view what) {
    if (v.isNull()) throw NullOperand{};
    if (!v.isIntegral()) {
        typeError(std::string(what) + " must be an integer, not " + typeName(v));
    }
    return v.integral();
}

}  // namespace tapdiffgen::core::maps

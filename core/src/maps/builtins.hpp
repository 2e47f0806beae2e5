// The built-in functions, methods and attributes of stream-map expressions. A name is looked up
// once, when the expression is compiled, and the node keeps what it found: evaluating a record
// calls through function pointers and never compares a name.
//
// Each kind lives in a file of its own, as a table: builtins_strings.cpp (str methods, md5),
// builtins_numbers.cpp (int, float, str, bool, round, abs, rand, randint),
// builtins_containers.cpp (len, min, max; dict, list and tuple methods) and
// builtins_datetime.cpp (the datetime module).
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "maps/value.hpp"

namespace tapdiffgen::core::maps {

using Arguments = std::vector<Value>;
/// The names of the last arguments of a call, when they were given by keyword.
using Keywords = std::vector<std::string>;

/// A function: md5, int, datetime.datetime.now, ...
struct Function {
    std::string_view name;  ///< as it is called: "md5", "datetime.date.today"
    Value (*call)(const Arguments& args, const Keywords& keywords);
    /// The one-argument call without an argument vector (the common case on the hot path), or
    /// nullptr.
    Value (*unary)(const Value& arg);
    bool takesKeywords;
    /// The same arguments give the same result (not rand(), not now()): a call on constants can
    /// be made once, when the expression is compiled.
    bool pure;
};

/// nullptr when there is no function of that name.
const Function* findFunction(std::string_view name);

/// The types that have methods or attributes.
enum class Receiver { String, Dict, Sequence, DateTime, Date, TimeDelta };
inline constexpr size_t kReceiverCount = 6;

using MethodCall = Value (*)(const Value& self, const Arguments& args);
using AttributeRead = Value (*)(const Value& self);

/// One implementation of a method for one receiver, as the kinds' tables list them.
struct MethodEntry {
    std::string_view name;
    Receiver receiver;
    MethodCall call;
};

struct AttributeEntry {
    std::string_view name;
    Receiver receiver;
    AttributeRead read;
};

/// A method name, resolved: its implementation for each receiver (nullptr where that type has
/// no such method: an AttributeError, as Python raises).
struct Method {
    std::string name;
    std::array<MethodCall, kReceiverCount> byReceiver{};
};

struct Attribute {
    std::string name;
    std::array<AttributeRead, kReceiverCount> byReceiver{};
};

/// nullopt when no type has a method (an attribute) of that name.
std::optional<Method> findMethod(std::string_view name);
std::optional<Attribute> findAttribute(std::string_view name);

/// Throws NullOperand on None and EvalError (AttributeError) where the type has none.
Value callMethod(const Method& method, const Value& self, const Arguments& args);
Value readAttribute(const Attribute& attribute, const Value& self);

// ---- for the implementations

/// TypeError unless least <= args.size() <= most.
void argumentCount(const Arguments& args, size_t least, size_t most, std::string_view name);
/// args[i] as a string (NullOperand on None, TypeError on another type).
const std::string& stringArgument(const Arguments& args, size_t i, std::string_view method);
/// An int or bool argument (NullOperand on None, TypeError on another type).
int64_t integerArgument(const Value& value, std::string_view what);

// ---- the kinds' tables

std::span<const Function> stringFunctions();
std::span<const MethodEntry> stringMethods();
std::span<const Function> numberFunctions();
std::span<const Function> containerFunctions();
std::span<const MethodEntry> containerMethods();
std::span<const Function> datetimeFunctions();
std::span<const MethodEntry> datetimeMethods();
std::span<const AttributeEntry> datetimeAttributes();

}  // namespace tapdiffgen::core::maps

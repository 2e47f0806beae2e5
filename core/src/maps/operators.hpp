// Python's operators on expression values: arithmetic, comparison, membership, subscripts and
// slices, with Python's results and Python's errors. An operand of None that Python would
// reject throws NullOperand (the expression then gives None: deletes carry nulls).
#pragma once

#include "maps/value.hpp"

namespace tapdiffgen::core::maps {

enum class BinaryOp { Add, Subtract, Multiply, Divide, FloorDivide, Modulo, Power };

enum class CompareOp {
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
    Equal,
    NotEqual,
    In,
    NotIn,
    Is,
    IsNot
};

Value arithmetic(BinaryOp op, const Value& left, const Value& right);
/// Unary minus (negate) or plus.
Value signedValue(const Value& operand, bool negate);
bool compare(CompareOp op, const Value& left, const Value& right);
/// object[index]
Value subscript(const Value& object, const Value& index);
/// object[start:stop:step]; None for a bound left out.
Value slice(const Value& object, const Value& start, const Value& stop, const Value& step);

}  // namespace tapdiffgen::core::maps

// The bounds expressions run within: nesting that would exhaust the stack is refused when the
// expression is compiled, and chains of one operator, which Python parses flat, work at any
// length.
#include <doctest/doctest.h>

#include "expression_cases.hpp"
#include "maps/limits.hpp"

using namespace tapdiffgen::core::maps;
using namespace tapdiffgen::testing;

namespace {

// `first`, then `separator` and `item` until there are `terms` terms.
std::string chain(const std::string& first, const std::string& separator, const std::string& item,
                  size_t terms) {
    return first + repeated(separator + item, terms - 1);
}

bool refusedAsTooDeep(const std::string& text) {
    return compileError(text).rfind("the expression is nested more than 200 levels deep", 0) == 0;
}

}  // namespace

TEST_CASE("an expression nested 10,000 deep is refused when it is compiled, whatever nests") {
    const size_t deep = 10000;
    CHECK(compileError(repeated("(", deep) + "1" + repeated(")", deep)) ==
          "the expression is nested more than 200 levels deep (at position 202)");
    CHECK(refusedAsTooDeep(repeated("-", deep) + "qty"));
    CHECK(refusedAsTooDeep(repeated("not ", deep) + "vip"));
    CHECK(refusedAsTooDeep(repeated("[", deep) + repeated("]", deep)));
    CHECK(refusedAsTooDeep(repeated("{'k': ", deep) + "1" + repeated("}", deep)));
    CHECK(refusedAsTooDeep(repeated("abs(", deep) + "qty" + repeated(")", deep)));
    CHECK(refusedAsTooDeep(chain("qty", " ** ", "1", deep)));
    CHECK(refusedAsTooDeep("name" + repeated(".lower()", deep)));
    CHECK(refusedAsTooDeep("doc" + repeated("['a']", deep)));
    CHECK(refusedAsTooDeep(repeated("name if (", deep) + "1" + repeated(") else 1", deep)));
}

TEST_CASE("200 levels of nesting are allowed, as Python allows 200 parentheses") {
    CHECK(eval(repeated("(", kMaxNesting) + "qty" + repeated(")", kMaxNesting)) == "3");
    CHECK(eval(repeated("-", kMaxNesting) + "qty") == "3");
    CHECK(eval("name" + repeated(".lower()", kMaxNesting)) == R"("ada lovelace")");
    CHECK(
        refusedAsTooDeep(repeated("(", kMaxNesting + 1) + "qty" + repeated(")", kMaxNesting + 1)));
    // Each level as deep as one level can make the tree: a conditional, or, and, a comparison,
    // +, * and ** around the next level, evaluated on a record.
    const std::string level = "((X) ** 1 * 1 + 0 > qty and qty or qty if vip else 0)";
    std::string nested = "qty";
    for (size_t i = 0; i < kMaxNesting / 2; ++i) {
        nested = level.substr(0, 2) + nested + level.substr(3);
    }
    CHECK(eval(nested) == "3");
}

TEST_CASE("a flat chain of 16,000 terms works, as Python parses it") {
    CHECK(eval(chain("note", " or ", "note", 15999) + " or qty") == "3");
    CHECK(eval(chain("vip", " and ", "vip", 15999) + " and qty") == "3");
    CHECK(eval(chain("qty", " + ", "qty", 16000)) == "48000");
    CHECK(eval(chain("qty", " - ", "1", 16000)) == "-15996");
    CHECK(eval(chain("1", " < ", "qty", 16000)) == "false");
    std::string cases;
    for (int i = 0; i < 16000; ++i)
        cases += "'c" + std::to_string(i) + "' if qty == " + std::to_string(i) + " else ";
    CHECK(eval(cases + "'none'") == R"("c3")");
}

TEST_CASE("simpleeval's MAX_STRING_LENGTH: no string or list past 100,000 by * or +") {
    const std::string tooLong =
        "IterableTooLong: the result would be longer than simpleeval's MAX_STRING_LENGTH of "
        "100000";
    // Constant: refused at start-up, as it would fail on every record.
    CHECK(compileError("'x' * 10**10") == tooLong);
    CHECK(compileError("[0] * 100001") == tooLong);
    CHECK(compileError("'x' * 60000 + 'y' * 60000") == tooLong);
    // Of the record: refused when it is evaluated, but None stays None (deletes carry nulls).
    CHECK(evalError("name * 10**10") == tooLong);
    CHECK(evalError("email + 'x' * 99990") == tooLong);
    CHECK(evalError("[qty] * 100001") == tooLong);
    CHECK(eval("note * 10**10") == "null");
    CHECK(eval("len('ab' * 50000) + len(name * 0) + len(name * -3)") == "100000");
    CHECK(eval("len('é' * 100000)") == "100000");
    CHECK(eval("'' * 10**18 + ''") == R"("")");
    CHECK(eval("[] * 10**18") == "[]");
    CHECK(compileError("'" + std::string(kMaxStringLength + 1, 'x') + "'") ==
          "IterableTooLong: a literal of 100001 characters is longer than simpleeval's "
          "MAX_STRING_LENGTH of 100000");
}

TEST_CASE("padding, replace and join are held to the same length when they grow a string") {
    const std::string tooLong =
        "IterableTooLong: the result would be longer than simpleeval's MAX_STRING_LENGTH of "
        "100000";
    CHECK(evalError("name.ljust(10**10)") == tooLong);
    CHECK(evalError("name.center(100001)") == tooLong);
    CHECK(evalError("email.zfill(10**18)") == tooLong);
    CHECK(eval("len(name.rjust(100000, '-'))") == "100000");
    CHECK(evalError("(name * 1000).replace('a', name * 1000)") == tooLong);
    CHECK(evalError("(name * 8000).replace('', '-')") == tooLong);
    CHECK(eval("len((name * 8000).replace('a', ''))") == "80000");
    CHECK(evalError("'-'.join([name * 8000, email * 8000])") == tooLong);
    CHECK(eval("len(''.join([name * 8000]))") == "96000");
}

TEST_CASE("simpleeval's MAX_POWER: ** with an operand over 4,000,000 is refused") {
    CHECK(compileError("2 ** 5000000") ==
          "NumberTooHigh: 2 ** 5000000 is refused: an operand is over simpleeval's MAX_POWER of "
          "4000000");
    CHECK(evalError("qty ** 4000001") ==
          "NumberTooHigh: 3 ** 4000001 is refused: an operand is over simpleeval's MAX_POWER of "
          "4000000");
    CHECK(evalError("(qty * 2000000.0) ** 0") ==
          "NumberTooHigh: 6000000.0 ** 0 is refused: an operand is over simpleeval's MAX_POWER "
          "of 4000000");
    CHECK(eval("qty ** 4") == "81");
    CHECK(eval("note ** 5000000") == "null");
}

TEST_CASE("a constant expression is computed once, and refused at start-up if it always fails") {
    CHECK(compileError("1 / 0") == "ZeroDivisionError: division by zero");
    // A failing constant part of an expression that reads the record fails on the record.
    CHECK(compileError("int('x') + qty") == "(compiled)");
    CHECK(evalError("int('x') + qty") == "ValueError: invalid literal for int() with base 10: 'x'");
    CHECK(eval("1 / 0 if False else 2") == "2");
    CHECK(eval("qty if vip else 1 / 0") == "3");
    CHECK(evalError("1 / 0 if vip else qty") == "ZeroDivisionError: division by zero");
    CHECK(eval("None * 2") == "null");
    CHECK(eval("(None * 2) is None") == "null");
    CHECK(eval("len(config['salt'] * 3) + 1") == "7");
}

TEST_CASE("Python's errors where C would give an infinity, a NaN or a trap without a word") {
    const std::string outOfRange = "OverflowError: (34, 'Numerical result out of range')";
    CHECK(evalError("2.0 ** 100000") == outOfRange);
    CHECK(evalError("float(qty) ** 100000") == outOfRange);
    CHECK(eval("2.0 ** -100000") == "0.0");
    CHECK(eval("float('inf') * 2") == "null");  // Python's inf, which JSON cannot hold
    CHECK(evalError("0 ** -1") == "ZeroDivisionError: 0.0 cannot be raised to a negative power");
    CHECK(evalError("(qty - 3.0) ** -2") ==
          "ZeroDivisionError: 0.0 cannot be raised to a negative power");
    CHECK(evalError("(-8.0) ** (1 / 3)") ==
          "TypeError: a negative number to a fractional power is a complex number, which JSON "
          "cannot hold");
    CHECK(eval("(-8.0) ** 2") == "64.0");
    const std::string smallest = "(2 - qty - 9223372036854775807)";
    CHECK(evalError(smallest + " // -1") ==
          "OverflowError: integer result does not fit in 64 bits");
    CHECK(eval(smallest + " % -1") == "0");
    CHECK(evalError("abs" + smallest) == "OverflowError: integer result does not fit in 64 bits");
}

TEST_CASE("datetime's ranges and keyword arguments are Python's") {
    CHECK(evalError("datetime.datetime(2023, 2, 29)") ==
          "ValueError: day is out of range for month");
    CHECK(evalError("datetime.date(0, 1, 1)") == "ValueError: year 0 is out of range");
    CHECK(evalError("datetime.datetime(2024, 1, 1, 24)") == "ValueError: hour must be in 0..23");
    CHECK(evalError("datetime.datetime(2024, 1, 1, 0, 0, 0, 1000000)") ==
          "ValueError: microsecond must be in 0..999999");
    CHECK(eval("datetime.datetime(2024, 1, 2, minute=5).isoformat()") ==
          R"("2024-01-02T00:05:00")");
    CHECK(eval("str(datetime.date(day=29, month=2, year=2024))") == R"("2024-02-29")");
    CHECK(evalError("datetime.datetime(2024, 1, 2, year=1)") ==
          "TypeError: argument for datetime() given by name ('year') and position (1)");
    CHECK(evalError("datetime.date(2024, 1, hour=1)") ==
          "TypeError: 'hour' is an invalid keyword argument for date()");
    CHECK(evalError("datetime.date(9999, 12, 31) + datetime.timedelta(days=1)") ==
          "OverflowError: date value out of range");
    CHECK(evalError("datetime.datetime(1, 1, 1) - datetime.timedelta(microseconds=1)") ==
          "OverflowError: date value out of range");
    CHECK(evalError("datetime.timedelta(days=10**9)") ==
          "OverflowError: days=1000000000; must have magnitude <= 999999999");
    CHECK(evalError("datetime.timedelta(days=qty * 10**8)") ==
          "OverflowError: days=300000000; must have magnitude <= 106751991");
    CHECK(evalError("datetime.timedelta(days=10**8) + datetime.timedelta(days=10**8)") ==
          "OverflowError: days=200000000; must have magnitude <= 106751991");
    CHECK(evalError("datetime.timedelta(seconds=float('nan'))") ==
          "ValueError: cannot convert float NaN to integer");
    CHECK(evalError("datetime.timedelta(hours=float('-inf'))") ==
          "OverflowError: cannot convert float infinity to integer");
}

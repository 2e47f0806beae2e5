// The bounds expressions run within: nesting that would exhaust the stack is refused when the
// expression is compiled, and chains of one operator, which Python parses flat, work at any
// length.
#include <doctest/doctest.h>

#include "expression_cases.hpp"
#include "maps/limits.hpp"

using namespace tapdiffgen::core::maps;
using namespace tapdiffgen::testing;

namespace {

std::string repeated(const std::string& part, size_t times) {
    std::string out;
    for (size_t i = 0; i < times; ++i) out += part;
    return out;
}

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

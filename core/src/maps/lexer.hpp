// The tokens of a stream-map expression, as Python's tokenizer splits them: names, numbers,
// string literals (decoded here, Python's escapes and all) and operators.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tapdiffgen::core::maps {

enum class TokenKind { Name, Integer, Float, String, Operator, End };

struct Token {
    TokenKind kind;
    std::string text;  // the name, the number's digits, the decoded string, the operator
    size_t position;   // of its first character, from 0
};

/// The expression's tokens, ending with an End token. Throws ExpressionError.
std::vector<Token> tokenize(std::string_view text);

/// Throws ExpressionError("syntax error at position N: what"), N counted from 1.
[[noreturn]] void syntaxError(size_t position, const std::string& what);

inline bool isDigit(char c) { return c >= '0' && c <= '9'; }

}  // namespace tapdiffgen::core::maps

#include "maps/lexer.hpp"

#include "maps/expression.hpp"

namespace tapdiffgen::core::maps {
namespace {

bool isNameStart(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           static_cast<unsigned char>(c) >= 0x80;
}

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The character a backslash escape stands for, or 0 when Python keeps the backslash.
char escaped(char c) {
    switch (c) {
        case 'n':
            return '\n';
        case 't':
            return '\t';
        case 'r':
            return '\r';
        case '\\':
        case '\'':
        case '"':
            return c;
        default:
            return 0;
    }
}

class Lexer {
public:
    explicit Lexer(std::string_view text) : text_(text) {}

    std::vector<Token> tokens() {
        std::vector<Token> out;
        for (;;) {
            while (at_ < text_.size() && isBlank(text_[at_])) ++at_;
            if (at_ >= text_.size()) break;
            const size_t start = at_;
            const char c = text_[at_];
            if (isNameStart(c)) {
                out.push_back(word());
            } else if (isDigit(c) || (c == '.' && isDigit(peek(1)))) {
                out.push_back(number());
            } else if (c == '\'' || c == '"') {
                out.push_back({TokenKind::String, string(false), start});
            } else {
                out.push_back({TokenKind::Operator, punctuation(), start});
            }
        }
        out.push_back({TokenKind::End, "", text_.size()});
        return out;
    }

private:
    std::string_view text_;
    size_t at_ = 0;

    char peek(size_t ahead) const { return at_ + ahead < text_.size() ? text_[at_ + ahead] : '\0'; }

    // A name, or a string literal with its prefix: r'...' and u'...' (f- and b-strings are
    // refused: they would need an evaluator of their own).
    Token word() {
        const size_t start = at_;
        size_t end = at_;
        while (end < text_.size() && (isNameStart(text_[end]) || isDigit(text_[end]))) ++end;
        std::string name(text_.substr(at_, end - at_));
        const bool quoteFollows = end < text_.size() && (text_[end] == '\'' || text_[end] == '"');
        if (quoteFollows && (name == "r" || name == "R" || name == "u" || name == "U")) {
            at_ = end;
            return {TokenKind::String, string(name == "r" || name == "R"), start};
        }
        if (quoteFollows && (name == "f" || name == "F" || name == "b" || name == "B")) {
            syntaxError(start, name + "-strings are not supported");
        }
        at_ = end;
        return {TokenKind::Name, std::move(name), start};
    }

    // Digits with single underscores between them (the underscores dropped).
    void takeDigits(std::string& digits) {
        while (at_ < text_.size() && (isDigit(text_[at_]) || text_[at_] == '_')) {
            if (text_[at_] != '_') digits.push_back(text_[at_]);
            ++at_;
        }
    }

    Token number() {
        const size_t start = at_;
        bool isFloat = false;
        std::string digits;
        takeDigits(digits);
        if (peek(0) == '.') {
            isFloat = true;
            digits.push_back('.');
            ++at_;
            takeDigits(digits);
        }
        if (peek(0) == 'e' || peek(0) == 'E') {
            isFloat = true;
            digits.push_back('e');
            ++at_;
            if (peek(0) == '+' || peek(0) == '-') digits.push_back(text_[at_++]);
            const size_t before = digits.size();
            takeDigits(digits);
            if (digits.size() == before) syntaxError(start, "invalid number");
        }
        if (at_ < text_.size() && (isNameStart(text_[at_]) || isDigit(text_[at_]))) {
            syntaxError(start, "invalid number");
        }
        if (!isFloat && digits.size() > 1 && digits[0] == '0' &&
            digits.find_first_not_of('0') != std::string::npos) {
            syntaxError(start, "leading zeros in a decimal integer are not permitted");
        }
        return {isFloat ? TokenKind::Float : TokenKind::Integer, digits, start};
    }

    bool atQuote(char quote, bool triple) const {
        return triple ? text_.substr(at_, 3) == std::string(3, quote) : text_[at_] == quote;
    }

    // A string literal, decoded: '...', "...", or tripled; raw keeps every backslash.
    std::string string(bool raw) {
        const size_t start = at_;
        const char quote = text_[at_];
        const bool triple = text_.substr(at_, 3) == std::string(3, quote);
        at_ += triple ? 3 : 1;
        std::string out;
        for (;;) {
            if (at_ >= text_.size()) syntaxError(start, "unterminated string literal");
            if (atQuote(quote, triple)) {
                at_ += triple ? 3 : 1;
                return out;
            }
            const char c = text_[at_++];
            if (c == '\n' && !triple) syntaxError(start, "unterminated string literal");
            if (c != '\\' || raw) {
                out.push_back(c);
                if (c == '\\' && at_ < text_.size()) out.push_back(text_[at_++]);
                continue;
            }
            if (at_ >= text_.size()) syntaxError(start, "unterminated string literal");
            const char e = text_[at_++];
            if (e == '0') {
                out.push_back('\0');
            } else if (e != '\n') {  // a backslash before a line break joins the lines
                const char decoded = escaped(e);
                if (decoded == 0) out.push_back('\\');
                out.push_back(decoded == 0 ? e : decoded);
            }
        }
    }

    std::string punctuation() {
        static const char* const kOperators[] = {
            "**", "//", "==", "!=", "<=", ">=", "<<", ">>", "+", "-", "*", "/", "%", "<", ">",
            "(",  ")",  "[",  "]",  "{",  "}",  ",",  ":",  ".", "|", "&", "^", "~", "="};
        for (const char* op : kOperators) {
            const std::string_view candidate(op);
            if (text_.substr(at_, candidate.size()) == candidate) {
                at_ += candidate.size();
                return std::string(candidate);
            }
        }
        syntaxError(at_, "unexpected character '" + std::string(1, text_[at_]) + "'");
    }
};

}  // namespace

void syntaxError(size_t position, const std::string& what) {
    throw ExpressionError("syntax error at position " + std::to_string(position + 1) + ": " + what);
}

std::vector<Token> tokenize(std::string_view text) { return Lexer(text).tokens(); }

}  // namespace tapdiffgen::core::maps

#include "maps/expression.hpp"

#include <Poco/MD5Engine.h>
#include <Poco/UTF8String.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <random>

#include "maps/datetime.hpp"

namespace tapdiffgen::core::maps {

// ---------------------------------------------------------------------------------------------
// Tokens

namespace {

enum class TokenKind { Name, Integer, Float, String, Operator, End };

struct Token {
    TokenKind kind;
    std::string text;  // name, number digits, decoded string, operator
    size_t position;
};

[[noreturn]] void syntaxError(size_t position, const std::string& what) {
    throw ExpressionError("syntax error at position " + std::to_string(position + 1) + ": " + what);
}

bool isNameStart(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           static_cast<unsigned char>(c) >= 0x80;
}
bool isDigit(char c) { return c >= '0' && c <= '9'; }

class Lexer {
public:
    explicit Lexer(std::string_view text) : text_(text) {}

    std::vector<Token> tokens() {
        std::vector<Token> out;
        for (;;) {
            while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\t' ||
                                          text_[at_] == '\n' || text_[at_] == '\r'))
                ++at_;
            if (at_ >= text_.size()) break;
            const size_t start = at_;
            const char c = text_[at_];
            if (isNameStart(c)) {
                size_t end = at_;
                while (end < text_.size() && (isNameStart(text_[end]) || isDigit(text_[end])))
                    ++end;
                std::string word(text_.substr(at_, end - at_));
                const bool prefix = (word == "r" || word == "R" || word == "u" || word == "U") &&
                                    end < text_.size() && (text_[end] == '\'' || text_[end] == '"');
                if (prefix) {
                    at_ = end;
                    out.push_back({TokenKind::String, string(word == "r" || word == "R"), start});
                    continue;
                }
                const bool fString = (word == "f" || word == "F" || word == "b" || word == "B") &&
                                     end < text_.size() &&
                                     (text_[end] == '\'' || text_[end] == '"');
                if (fString) syntaxError(start, word + "-strings are not supported");
                at_ = end;
                out.push_back({TokenKind::Name, std::move(word), start});
            } else if (isDigit(c) ||
                       (c == '.' && at_ + 1 < text_.size() && isDigit(text_[at_ + 1]))) {
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

    Token number() {
        const size_t start = at_;
        bool isFloat = false;
        std::string digits;
        auto take = [&](auto accept) {
            while (at_ < text_.size() && (accept(text_[at_]) || text_[at_] == '_')) {
                if (text_[at_] != '_') digits.push_back(text_[at_]);
                ++at_;
            }
        };
        take(isDigit);
        if (at_ < text_.size() && text_[at_] == '.') {
            isFloat = true;
            digits.push_back('.');
            ++at_;
            take(isDigit);
        }
        if (at_ < text_.size() && (text_[at_] == 'e' || text_[at_] == 'E')) {
            isFloat = true;
            digits.push_back('e');
            ++at_;
            if (at_ < text_.size() && (text_[at_] == '+' || text_[at_] == '-')) {
                digits.push_back(text_[at_++]);
            }
            const size_t before = digits.size();
            take(isDigit);
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

    std::string string(bool raw) {
        const size_t start = at_;
        const char quote = text_[at_];
        const bool triple = text_.substr(at_, 3) == std::string(3, quote);
        at_ += triple ? 3 : 1;
        std::string out;
        for (;;) {
            if (at_ >= text_.size()) syntaxError(start, "unterminated string literal");
            const char c = text_[at_];
            if (triple ? text_.substr(at_, 3) == std::string(3, quote) : c == quote) {
                at_ += triple ? 3 : 1;
                return out;
            }
            if (c == '\n' && !triple) syntaxError(start, "unterminated string literal");
            ++at_;
            if (c != '\\' || raw) {
                out.push_back(c);
                if (c == '\\' && at_ < text_.size()) out.push_back(text_[at_++]);
                continue;
            }
            if (at_ >= text_.size()) syntaxError(start, "unterminated string literal");
            const char e = text_[at_++];
            switch (e) {
                case 'n':
                    out.push_back('\n');
                    break;
                case 't':
                    out.push_back('\t');
                    break;
                case 'r':
                    out.push_back('\r');
                    break;
                case '0':
                    out.push_back('\0');
                    break;
                case '\\':
                    out.push_back('\\');
                    break;
                case '\'':
                    out.push_back('\'');
                    break;
                case '"':
                    out.push_back('"');
                    break;
                case '\n':
                    break;
                default:
                    out.push_back('\\');
                    out.push_back(e);
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

// ---------------------------------------------------------------------------------------------
// The compiled tree

enum class NodeKind {
    Constant,
    Property,
    Record,
    Self,
    Config,
    List,
    Tuple,
    Dict,
    Negate,
    Positive,
    Not,
    Binary,
    And,
    Or,
    Compare,
    IfElse,
    Subscript,
    Slice,
    Attribute,
    Method,
    Function,
};

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
enum class Builtin {
    Md5,
    Bool,
    Int,
    Float,
    Str,
    Rand,
    RandInt,
    Len,
    Round,
    Abs,
    Min,
    Max,
    DateTimeNew,
    DateTimeNow,
    DateTimeUtcNow,
    DateTimeFromIso,
    DateNew,
    DateToday,
    DateFromIso,
    TimeDelta,
};

struct Node {
    NodeKind kind = NodeKind::Constant;
    Value constant;
    size_t slot = 0;
    BinaryOp binary = BinaryOp::Add;
    std::vector<CompareOp> compares;
    Builtin builtin = Builtin::Str;
    std::string name;  // method or attribute
    std::vector<std::shared_ptr<const Node>> children;
    std::vector<std::string> keywords;  // keyword argument names, for the last children
};

namespace {

using NodePtr = std::shared_ptr<Node>;

NodePtr makeNode(NodeKind kind) {
    auto node = std::make_shared<Node>();
    node->kind = kind;
    return node;
}

const std::map<std::string, Builtin>& functionNames() {
    static const std::map<std::string, Builtin> names = {
        {"md5", Builtin::Md5},
        {"bool", Builtin::Bool},
        {"int", Builtin::Int},
        {"float", Builtin::Float},
        {"str", Builtin::Str},
        {"rand", Builtin::Rand},
        {"randint", Builtin::RandInt},
        // Extensions beyond the SDK's functions.
        {"len", Builtin::Len},
        {"round", Builtin::Round},
        {"abs", Builtin::Abs},
        {"min", Builtin::Min},
        {"max", Builtin::Max},
        {"datetime.datetime", Builtin::DateTimeNew},
        {"datetime.datetime.now", Builtin::DateTimeNow},
        {"datetime.datetime.utcnow", Builtin::DateTimeUtcNow},
        {"datetime.datetime.fromisoformat", Builtin::DateTimeFromIso},
        {"datetime.date", Builtin::DateNew},
        {"datetime.date.today", Builtin::DateToday},
        {"datetime.date.fromisoformat", Builtin::DateFromIso},
        {"datetime.timedelta", Builtin::TimeDelta},
    };
    return names;
}

const std::vector<std::string>& methodNames() {
    static const std::vector<std::string> names = {
        // str
        "lower", "upper", "casefold", "strip", "lstrip", "rstrip", "replace", "split", "rsplit",
        "startswith", "endswith", "title", "capitalize", "swapcase", "find", "rfind", "index",
        "count", "join", "zfill", "ljust", "rjust", "center", "isdigit", "isalpha", "isalnum",
        "isspace", "islower", "isupper", "isnumeric", "isdecimal", "removeprefix", "removesuffix",
        "partition", "rpartition", "splitlines",
        // dict
        "get", "keys", "values", "items",
        // datetime, date, timedelta
        "isoformat", "strftime", "date", "timestamp", "weekday", "isoweekday", "total_seconds"};
    return names;
}

const std::vector<std::string>& attributeNames() {
    static const std::vector<std::string> names = {"year",    "month",       "day",         "hour",
                                                   "minute",  "second",      "microsecond", "days",
                                                   "seconds", "microseconds"};
    return names;
}

class Parser {
public:
    Parser(std::vector<Token> tokens, const Scope& scope)
        : tokens_(std::move(tokens)), scope_(scope) {}

    NodePtr parse() {
        NodePtr root = test();
        if (peek().kind != TokenKind::End) unexpected();
        return root;
    }

    bool usesRecord() const { return usesRecord_; }

private:
    std::vector<Token> tokens_;
    const Scope& scope_;
    size_t at_ = 0;
    bool usesRecord_ = false;

    const Token& peek(size_t ahead = 0) const {
        return tokens_[std::min(at_ + ahead, tokens_.size() - 1)];
    }
    const Token& next() { return tokens_[at_ < tokens_.size() - 1 ? at_++ : at_]; }

    bool isOperator(const char* op, size_t ahead = 0) const {
        return peek(ahead).kind == TokenKind::Operator && peek(ahead).text == op;
    }
    bool isKeyword(const char* word, size_t ahead = 0) const {
        return peek(ahead).kind == TokenKind::Name && peek(ahead).text == word;
    }
    bool accept(const char* op) {
        if (!isOperator(op)) return false;
        ++at_;
        return true;
    }
    void expect(const char* op) {
        if (!accept(op)) {
            const Token& token = peek();
            syntaxError(token.position, std::string("expected '") + op + "'" + found(token));
        }
    }
    static std::string found(const Token& token) {
        return token.kind == TokenKind::End ? " but the expression ended"
                                            : " but found '" + token.text + "'";
    }
    [[noreturn]] void unexpected() const {
        const Token& token = peek();
        if (token.kind == TokenKind::End)
            syntaxError(token.position, "unexpected end of expression");
        syntaxError(token.position, "unexpected '" + token.text + "'");
    }

    NodePtr test() {
        NodePtr value = orTest();
        if (!isKeyword("if")) return value;
        ++at_;
        NodePtr condition = orTest();
        if (!isKeyword("else")) syntaxError(peek().position, "expected 'else'" + found(peek()));
        ++at_;
        NodePtr otherwise = test();
        NodePtr node = makeNode(NodeKind::IfElse);
        node->children = {condition, value, otherwise};
        return node;
    }

    NodePtr orTest() {
        NodePtr left = andTest();
        while (isKeyword("or")) {
            ++at_;
            NodePtr node = makeNode(NodeKind::Or);
            node->children = {left, andTest()};
            left = node;
        }
        return left;
    }

    NodePtr andTest() {
        NodePtr left = notTest();
        while (isKeyword("and")) {
            ++at_;
            NodePtr node = makeNode(NodeKind::And);
            node->children = {left, notTest()};
            left = node;
        }
        return left;
    }

    NodePtr notTest() {
        if (isKeyword("not")) {
            ++at_;
            NodePtr node = makeNode(NodeKind::Not);
            node->children = {notTest()};
            return node;
        }
        return comparison();
    }

    std::optional<CompareOp> compareOperator() {
        static const std::map<std::string, CompareOp> symbols = {
            {"<", CompareOp::Less},    {"<=", CompareOp::LessEqual},
            {">", CompareOp::Greater}, {">=", CompareOp::GreaterEqual},
            {"==", CompareOp::Equal},  {"!=", CompareOp::NotEqual}};
        const Token& token = peek();
        if (token.kind == TokenKind::Operator) {
            auto found = symbols.find(token.text);
            if (found == symbols.end()) return std::nullopt;
            ++at_;
            return found->second;
        }
        if (isKeyword("in")) {
            ++at_;
            return CompareOp::In;
        }
        if (isKeyword("not") && isKeyword("in", 1)) {
            at_ += 2;
            return CompareOp::NotIn;
        }
        if (isKeyword("is")) {
            ++at_;
            if (isKeyword("not")) {
                ++at_;
                return CompareOp::IsNot;
            }
            return CompareOp::Is;
        }
        return std::nullopt;
    }

    NodePtr comparison() {
        NodePtr first = bitwise();
        NodePtr node;
        while (auto op = compareOperator()) {
            if (!node) {
                node = makeNode(NodeKind::Compare);
                node->children.push_back(first);
            }
            node->compares.push_back(*op);
            node->children.push_back(bitwise());
        }
        return node ? node : first;
    }

    NodePtr bitwise() {
        NodePtr left = arithmetic();
        for (const char* op : {"|", "&", "^", "<<", ">>"}) {
            if (isOperator(op)) {
                throw ExpressionError("operator '" + std::string(op) + "' is not allowed");
            }
        }
        return left;
    }

    NodePtr binary(BinaryOp op, NodePtr left, NodePtr right) {
        NodePtr node = makeNode(NodeKind::Binary);
        node->binary = op;
        node->children = {std::move(left), std::move(right)};
        return node;
    }

    NodePtr arithmetic() {
        NodePtr left = term();
        for (;;) {
            if (accept("+")) {
                left = binary(BinaryOp::Add, left, term());
            } else if (accept("-")) {
                left = binary(BinaryOp::Subtract, left, term());
            } else {
                return left;
            }
        }
    }

    NodePtr term() {
        NodePtr left = factor();
        for (;;) {
            if (accept("*")) {
                left = binary(BinaryOp::Multiply, left, factor());
            } else if (accept("//")) {
                left = binary(BinaryOp::FloorDivide, left, factor());
            } else if (accept("/")) {
                left = binary(BinaryOp::Divide, left, factor());
            } else if (accept("%")) {
                left = binary(BinaryOp::Modulo, left, factor());
            } else {
                return left;
            }
        }
    }

    NodePtr factor() {
        if (accept("-")) {
            NodePtr node = makeNode(NodeKind::Negate);
            node->children = {factor()};
            return node;
        }
        if (accept("+")) {
            NodePtr node = makeNode(NodeKind::Positive);
            node->children = {factor()};
            return node;
        }
        if (isOperator("~")) throw ExpressionError("operator '~' is not allowed");
        return power();
    }

    NodePtr power() {
        NodePtr base = primary();
        if (accept("**")) return binary(BinaryOp::Power, base, factor());
        return base;
    }

    // A name of the datetime module, as far as it is spelled out: "datetime.datetime".
    struct ModulePath {
        std::string path;
        size_t position;
    };

    NodePtr primary() {
        std::optional<ModulePath> module;
        NodePtr value = atom(module);
        for (;;) {
            if (isOperator(".")) {
                ++at_;
                const Token& name = next();
                if (name.kind != TokenKind::Name)
                    syntaxError(name.position, "expected a name after '.'");
                checkAllowedName(name.text, "attribute");
                if (module) {
                    module->path += "." + name.text;
                    continue;
                }
                if (isOperator("(")) {
                    value = method(value, name.text);
                    continue;
                }
                if (std::find(attributeNames().begin(), attributeNames().end(), name.text) ==
                    attributeNames().end()) {
                    throw ExpressionError("unknown attribute '" + name.text + "'");
                }
                NodePtr node = makeNode(NodeKind::Attribute);
                node->name = name.text;
                node->children = {value};
                value = node;
            } else if (isOperator("(")) {
                if (!module) throw ExpressionError("only functions can be called");
                value = function(module->path);
                module.reset();
            } else if (isOperator("[")) {
                if (module) moduleAsValue(*module);
                ++at_;
                value = subscript(value);
            } else {
                break;
            }
        }
        if (module) moduleAsValue(*module);
        return value;
    }

    [[noreturn]] void moduleAsValue(const ModulePath& module) const {
        if (functionNames().count(module.path)) {
            throw ExpressionError("function '" + module.path + "' must be called");
        }
        throw ExpressionError("unknown function '" + module.path + "'");
    }

    static void checkAllowedName(const std::string& name, const char* what) {
        if (name.size() > 1 && name[0] == '_') {
            throw ExpressionError(std::string(what) + " '" + name +
                                  "' is not allowed: names starting with '_' are refused");
        }
        if (name == "format" || name == "format_map" || name == "mro") {
            throw ExpressionError(std::string(what) + " '" + name + "' is not allowed");
        }
    }

    std::vector<NodePtr> arguments(std::vector<std::string>& keywords) {
        expect("(");
        std::vector<NodePtr> args;
        while (!isOperator(")")) {
            if (peek().kind == TokenKind::Name && isOperator("=", 1)) {
                keywords.push_back(next().text);
                ++at_;
            } else if (!keywords.empty()) {
                syntaxError(peek().position, "positional argument follows keyword argument");
            }
            if (isOperator("*") || isOperator("**"))
                throw ExpressionError("argument unpacking is not allowed");
            args.push_back(test());
            if (!accept(",")) break;
        }
        expect(")");
        return args;
    }

    NodePtr method(NodePtr object, const std::string& name) {
        if (std::find(methodNames().begin(), methodNames().end(), name) == methodNames().end()) {
            throw ExpressionError("unknown function '" + name + "'");
        }
        NodePtr node = makeNode(NodeKind::Method);
        node->name = name;
        std::vector<std::string> keywords;
        std::vector<NodePtr> args = arguments(keywords);
        if (!keywords.empty()) throw ExpressionError("'" + name + "' takes no keyword arguments");
        node->children.push_back(object);
        for (auto& arg : args) node->children.push_back(arg);
        return node;
    }

    NodePtr function(const std::string& path) {
        auto found = functionNames().find(path);
        if (found == functionNames().end())
            throw ExpressionError("unknown function '" + path + "'");
        NodePtr node = makeNode(NodeKind::Function);
        node->builtin = found->second;
        std::vector<NodePtr> args = arguments(node->keywords);
        if (!node->keywords.empty() && node->builtin != Builtin::TimeDelta &&
            node->builtin != Builtin::DateTimeNew) {
            throw ExpressionError("'" + path + "' takes no keyword arguments");
        }
        for (auto& arg : args) node->children.push_back(arg);
        return node;
    }

    NodePtr subscript(NodePtr object) {
        NodePtr node = makeNode(NodeKind::Subscript);
        NodePtr index;
        if (isOperator(":") || !isOperator("]")) {
            NodePtr start = isOperator(":") ? nullptr : test();
            if (isOperator(":")) {
                ++at_;
                NodePtr slice = makeNode(NodeKind::Slice);
                NodePtr stop = isOperator(":") || isOperator("]") ? nullptr : test();
                NodePtr step;
                if (accept(":") && !isOperator("]")) step = test();
                auto orNone = [](NodePtr n) { return n ? n : makeNode(NodeKind::Constant); };
                slice->children = {orNone(start), orNone(stop), orNone(step)};
                index = slice;
            } else {
                index = start;
            }
        } else {
            unexpected();
        }
        expect("]");
        node->children = {object, index};
        return node;
    }

    NodePtr constant(Value value) {
        NodePtr node = makeNode(NodeKind::Constant);
        node->constant = std::move(value);
        return node;
    }

    NodePtr atom(std::optional<ModulePath>& module) {
        const Token& token = next();
        switch (token.kind) {
            case TokenKind::Integer: {
                errno = 0;
                char* end = nullptr;
                long long parsed = std::strtoll(token.text.c_str(), &end, 10);
                if (errno != 0) throw ExpressionError("integer " + token.text + " is too large");
                return constant(Value::fromInt(parsed));
            }
            case TokenKind::Float:
                return constant(Value::fromFloat(std::strtod(token.text.c_str(), nullptr)));
            case TokenKind::String: {
                std::string text = token.text;
                while (peek().kind == TokenKind::String) text += next().text;
                return constant(Value::fromString(std::move(text)));
            }
            case TokenKind::Name:
                return name(token, module);
            case TokenKind::Operator:
                if (token.text == "(") return parenthesised();
                if (token.text == "[") return listDisplay();
                if (token.text == "{") return dictDisplay();
                --at_;
                unexpected();
            case TokenKind::End:
                unexpected();
        }
        unexpected();
    }

    NodePtr name(const Token& token, std::optional<ModulePath>& module) {
        const std::string& word = token.text;
        if (word == "True") return constant(Value::fromBool(true));
        if (word == "False") return constant(Value::fromBool(false));
        if (word == "None") return constant(Value::null());
        static const char* const kKeywords[] = {
            "and",    "or",     "not",  "in",    "is",     "if",    "else",  "for",
            "lambda", "import", "def",  "class", "return", "yield", "await", "async",
            "del",    "while",  "with", "from",  "as",     "pass"};
        for (const char* keyword : kKeywords) {
            if (word == keyword) {
                if (word == "lambda" || word == "for")
                    throw ExpressionError("'" + word + "' is not allowed");
                syntaxError(token.position, "unexpected '" + word + "'");
            }
        }
        if (word == "_" || word == "record") {
            usesRecord_ = true;
            return makeNode(NodeKind::Record);
        }
        if (word == "config") {
            NodePtr node = makeNode(NodeKind::Config);
            node->constant = scope_.config;
            return node;
        }
        if (word == "self" && scope_.selfSlot) {
            NodePtr node = makeNode(NodeKind::Property);
            node->slot = *scope_.selfSlot;
            return node;
        }
        for (size_t i = 0; i < scope_.properties.size(); ++i) {
            if (scope_.properties[i] == word) {
                NodePtr node = makeNode(NodeKind::Property);
                node->slot = i;
                return node;
            }
        }
        if (word == "datetime" || functionNames().count(word)) {
            module = ModulePath{word, token.position};
            return nullptr;
        }
        checkAllowedName(word, "name");
        throw ExpressionError("unknown name '" + word + "'");
    }

    NodePtr parenthesised() {
        if (accept(")")) return makeNode(NodeKind::Tuple);
        NodePtr first = test();
        if (accept(")")) return first;
        NodePtr tuple = makeNode(NodeKind::Tuple);
        tuple->children.push_back(first);
        while (accept(",")) {
            if (isOperator(")")) break;
            tuple->children.push_back(test());
        }
        if (isKeyword("for")) throw ExpressionError("comprehensions are not supported");
        expect(")");
        return tuple;
    }

    NodePtr listDisplay() {
        NodePtr list = makeNode(NodeKind::List);
        while (!isOperator("]")) {
            list->children.push_back(test());
            if (isKeyword("for")) throw ExpressionError("comprehensions are not supported");
            if (!accept(",")) break;
        }
        expect("]");
        return list;
    }

    NodePtr dictDisplay() {
        NodePtr dict = makeNode(NodeKind::Dict);
        bool isSet = false;
        while (!isOperator("}")) {
            NodePtr key = test();
            if (isKeyword("for")) throw ExpressionError("comprehensions are not supported");
            if (dict->children.empty() && !isOperator(":")) isSet = true;
            if (isSet) {
                dict->children.push_back(key);
            } else {
                expect(":");
                dict->children.push_back(key);
                dict->children.push_back(test());
            }
            if (!accept(",")) break;
        }
        expect("}");
        if (isSet) throw ExpressionError("set literals are not supported");
        return dict;
    }
};

}  // namespace

Expression Expression::compile(std::string_view text, const Scope& scope) {
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
        throw ExpressionError("the expression is empty");
    }
    Parser parser(Lexer(text).tokens(), scope);
    Expression expression;
    NodePtr root = parser.parse();
    if (root->kind == NodeKind::Property) expression.plainProperty_ = root->slot;
    expression.usesRecord_ = parser.usesRecord();
    expression.root_ = root;
    return expression;
}

// ---------------------------------------------------------------------------------------------
// Evaluation

namespace {

[[noreturn]] void typeError(const std::string& message) {
    throw EvalError("TypeError: " + message);
}
[[noreturn]] void valueError(const std::string& message) {
    throw EvalError("ValueError: " + message);
}

bool isIntegral(const Value& v) { return v.type == ValueType::Int || v.type == ValueType::Bool; }
int64_t integral(const Value& v) { return v.type == ValueType::Bool ? v.boolean : v.integer; }
bool isSequence(const Value& v) { return v.type == ValueType::List || v.type == ValueType::Tuple; }

const char* symbol(BinaryOp op) {
    switch (op) {
        case BinaryOp::Add:
            return "+";
        case BinaryOp::Subtract:
            return "-";
        case BinaryOp::Multiply:
            return "*";
        case BinaryOp::Divide:
            return "/";
        case BinaryOp::FloorDivide:
            return "//";
        case BinaryOp::Modulo:
            return "%";
        case BinaryOp::Power:
            return "** or pow()";
    }
    return "?";
}

[[noreturn]] void unsupported(BinaryOp op, const Value& a, const Value& b) {
    if (a.isNull() || b.isNull()) throw NullOperand{};
    typeError(std::string("unsupported operand type(s) for ") + symbol(op) + ": '" + typeName(a) +
              "' and '" + typeName(b) + "'");
}

[[noreturn]] void overflow() {
    throw EvalError("OverflowError: integer result does not fit in 64 bits");
}

Value intArithmetic(BinaryOp op, int64_t a, int64_t b) {
    int64_t r = 0;
    switch (op) {
        case BinaryOp::Add:
            if (__builtin_add_overflow(a, b, &r)) overflow();
            return Value::fromInt(r);
        case BinaryOp::Subtract:
            if (__builtin_sub_overflow(a, b, &r)) overflow();
            return Value::fromInt(r);
        case BinaryOp::Multiply:
            if (__builtin_mul_overflow(a, b, &r)) overflow();
            return Value::fromInt(r);
        case BinaryOp::Divide:
            if (b == 0) throw EvalError("ZeroDivisionError: division by zero");
            return Value::fromFloat(static_cast<double>(a) / static_cast<double>(b));
        case BinaryOp::FloorDivide: {
            if (b == 0) throw EvalError("ZeroDivisionError: integer division or modulo by zero");
            int64_t q = a / b;
            if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
            return Value::fromInt(q);
        }
        case BinaryOp::Modulo: {
            if (b == 0) throw EvalError("ZeroDivisionError: integer division or modulo by zero");
            int64_t m = a % b;
            if (m != 0 && ((m < 0) != (b < 0))) m += b;
            return Value::fromInt(m);
        }
        case BinaryOp::Power: {
            if (b < 0)
                return Value::fromFloat(std::pow(static_cast<double>(a), static_cast<double>(b)));
            int64_t result = 1, base = a;
            for (int64_t e = b; e > 0; e >>= 1) {
                if ((e & 1) && __builtin_mul_overflow(result, base, &result)) overflow();
                if (e > 1 && __builtin_mul_overflow(base, base, &base)) overflow();
            }
            return Value::fromInt(result);
        }
    }
    return Value::null();
}

Value floatArithmetic(BinaryOp op, double a, double b) {
    switch (op) {
        case BinaryOp::Add:
            return Value::fromFloat(a + b);
        case BinaryOp::Subtract:
            return Value::fromFloat(a - b);
        case BinaryOp::Multiply:
            return Value::fromFloat(a * b);
        case BinaryOp::Divide:
            if (b == 0) throw EvalError("ZeroDivisionError: float division by zero");
            return Value::fromFloat(a / b);
        case BinaryOp::FloorDivide:
            if (b == 0) throw EvalError("ZeroDivisionError: float floor division by zero");
            return Value::fromFloat(std::floor(a / b));
        case BinaryOp::Modulo: {
            if (b == 0) throw EvalError("ZeroDivisionError: float modulo");
            double m = std::fmod(a, b);
            if (m != 0 && ((m < 0) != (b < 0))) m += b;
            return Value::fromFloat(m);
        }
        case BinaryOp::Power:
            return Value::fromFloat(std::pow(a, b));
    }
    return Value::null();
}

Value repeat(const Value& sequence, int64_t times) {
    if (sequence.type == ValueType::String) {
        std::string out;
        for (int64_t i = 0; i < times; ++i) out += sequence.text;
        return Value::fromString(std::move(out));
    }
    ValueList items;
    for (int64_t i = 0; i < times; ++i)
        items.insert(items.end(), sequence.items->begin(), sequence.items->end());
    return Value::list(std::move(items), sequence.type);
}

Value arithmetic(BinaryOp op, const Value& a, const Value& b) {
    if (a.isNumber() && b.isNumber()) {
        if (isIntegral(a) && isIntegral(b)) return intArithmetic(op, integral(a), integral(b));
        return floatArithmetic(op, a.asDouble(), b.asDouble());
    }
    if (op == BinaryOp::Add) {
        if (a.type == ValueType::String && b.type == ValueType::String)
            return Value::fromString(a.text + b.text);
        if (isSequence(a) && a.type == b.type) {
            ValueList items = *a.items;
            items.insert(items.end(), b.items->begin(), b.items->end());
            return Value::list(std::move(items), a.type);
        }
        if (a.type == ValueType::String && !b.isNull()) {
            typeError("can only concatenate str (not \"" + typeName(b) + "\") to str");
        }
    }
    if (op == BinaryOp::Multiply) {
        if ((a.type == ValueType::String || isSequence(a)) && isIntegral(b))
            return repeat(a, integral(b));
        if ((b.type == ValueType::String || isSequence(b)) && isIntegral(a))
            return repeat(b, integral(a));
    }
    if (op == BinaryOp::Modulo && a.type == ValueType::String) {
        typeError("string formatting with % is not supported");
    }
    const bool aTime = a.type == ValueType::DateTime || a.type == ValueType::Date;
    if (aTime && b.type == ValueType::TimeDelta &&
        (op == BinaryOp::Add || op == BinaryOp::Subtract)) {
        Value result = a;
        result.integer += op == BinaryOp::Add ? b.integer : -b.integer;
        if (a.type == ValueType::Date) result.integer -= result.integer % kMicrosPerDay;
        return result;
    }
    if (a.type == ValueType::TimeDelta && b.type == ValueType::TimeDelta) {
        if (op == BinaryOp::Add) return makeTimeDelta(a.integer + b.integer);
        if (op == BinaryOp::Subtract) return makeTimeDelta(a.integer - b.integer);
    }
    if (a.type == ValueType::TimeDelta && aTime == false && b.type == ValueType::DateTime &&
        op == BinaryOp::Add) {
        return arithmetic(op, b, a);
    }
    if (aTime && a.type == b.type && op == BinaryOp::Subtract) {
        if (a.type == ValueType::DateTime && a.hasOffset != b.hasOffset) {
            typeError("can't subtract offset-naive and offset-aware datetimes");
        }
        return makeTimeDelta((a.integer - a.offsetSeconds * kMicrosPerSecond) -
                             (b.integer - b.offsetSeconds * kMicrosPerSecond));
    }
    unsupported(op, a, b);
}

int compareOrder(const Value& a, const Value& b, const char* op) {
    if (a.isNumber() && b.isNumber()) {
        if (isIntegral(a) && isIntegral(b))
            return integral(a) < integral(b) ? -1 : integral(a) > integral(b);
        const double x = a.asDouble(), y = b.asDouble();
        if (std::isnan(x) || std::isnan(y)) return 2;  // every ordering is false
        return x < y ? -1 : x > y;
    }
    if (a.type == ValueType::String && b.type == ValueType::String) {
        const int c = a.text.compare(b.text);  // UTF-8 byte order is code point order
        return c < 0 ? -1 : c > 0;
    }
    if ((a.type == ValueType::DateTime || a.type == ValueType::Date ||
         a.type == ValueType::TimeDelta) &&
        a.type == b.type) {
        if (a.type == ValueType::DateTime && a.hasOffset != b.hasOffset) {
            typeError("can't compare offset-naive and offset-aware datetimes");
        }
        const int64_t x = a.integer - a.offsetSeconds * kMicrosPerSecond;
        const int64_t y = b.integer - b.offsetSeconds * kMicrosPerSecond;
        return x < y ? -1 : x > y;
    }
    if (isSequence(a) && a.type == b.type) {
        const size_t n = std::min(a.items->size(), b.items->size());
        for (size_t i = 0; i < n; ++i) {
            if (!equals((*a.items)[i], (*b.items)[i]))
                return compareOrder((*a.items)[i], (*b.items)[i], op);
        }
        return a.items->size() < b.items->size() ? -1 : a.items->size() > b.items->size();
    }
    if (a.isNull() || b.isNull()) throw NullOperand{};
    typeError(std::string("'") + op + "' not supported between instances of '" + typeName(a) +
              "' and '" + typeName(b) + "'");
}

bool contains(const Value& container, const Value& item) {
    switch (container.type) {
        case ValueType::String:
            if (item.type != ValueType::String) {
                if (item.isNull()) throw NullOperand{};
                typeError("'in <string>' requires string as left operand, not " + typeName(item));
            }
            return container.text.find(item.text) != std::string::npos;
        case ValueType::List:
        case ValueType::Tuple:
            for (const Value& v : *container.items) {
                if (equals(v, item)) return true;
            }
            return false;
        case ValueType::Dict:
            for (const auto& entry : *container.entries) {
                if (equals(entry.first, item)) return true;
            }
            return false;
        case ValueType::Null:
            throw NullOperand{};
        default:
            typeError("argument of type '" + typeName(container) + "' is not iterable");
    }
}

bool identical(const Value& a, const Value& b) {
    if (a.isNull() || b.isNull()) return a.isNull() && b.isNull();
    return a.type == b.type && equals(a, b);
}

bool compare(CompareOp op, const Value& a, const Value& b) {
    switch (op) {
        case CompareOp::Equal:
            return equals(a, b);
        case CompareOp::NotEqual:
            return !equals(a, b);
        case CompareOp::Less: {
            int c = compareOrder(a, b, "<");
            return c == -1;
        }
        case CompareOp::LessEqual: {
            int c = compareOrder(a, b, "<=");
            return c == -1 || c == 0;
        }
        case CompareOp::Greater: {
            int c = compareOrder(a, b, ">");
            return c == 1;
        }
        case CompareOp::GreaterEqual: {
            int c = compareOrder(a, b, ">=");
            return c == 1 || c == 0;
        }
        case CompareOp::In:
            return contains(b, a);
        case CompareOp::NotIn:
            return !contains(b, a);
        case CompareOp::Is:
            return identical(a, b);
        case CompareOp::IsNot:
            return !identical(a, b);
    }
    return false;
}

// Index i of a sequence of `size`, Python style (negative from the end).
size_t sequenceIndex(const Value& index, size_t size, const char* what) {
    if (!isIntegral(index)) {
        if (index.isNull()) throw NullOperand{};
        typeError(std::string(what) + " indices must be integers or slices, not " +
                  typeName(index));
    }
    int64_t i = integral(index);
    if (i < 0) i += static_cast<int64_t>(size);
    if (i < 0 || i >= static_cast<int64_t>(size))
        throw EvalError(std::string("IndexError: ") + what + " index out of range");
    return static_cast<size_t>(i);
}

// UTF-8 code points of a string, so that indexes count characters as Python does.
std::vector<std::string> codePoints(const std::string& text) {
    std::vector<std::string> out;
    for (size_t i = 0; i < text.size();) {
        size_t length = 1;
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0xF0)
            length = 4;
        else if (c >= 0xE0)
            length = 3;
        else if (c >= 0xC0)
            length = 2;
        out.push_back(text.substr(i, length));
        i += length;
    }
    return out;
}

bool isAscii(const std::string& text) {
    return std::all_of(text.begin(), text.end(),
                       [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

Value slice(const Value& object, const Value& startV, const Value& stopV, const Value& stepV) {
    auto bound = [](const Value& v) -> std::optional<int64_t> {
        if (v.isNull()) return std::nullopt;
        if (!isIntegral(v)) typeError("slice indices must be integers or None");
        return integral(v);
    };
    std::vector<std::string> characters;
    size_t size = 0;
    if (object.type == ValueType::String) {
        if (isAscii(object.text)) {
            size = object.text.size();
        } else {
            characters = codePoints(object.text);
            size = characters.size();
        }
    } else if (isSequence(object)) {
        size = object.items->size();
    } else {
        if (object.isNull()) throw NullOperand{};
        typeError("'" + typeName(object) + "' object is not subscriptable");
    }
    const int64_t n = static_cast<int64_t>(size);
    const int64_t step = bound(stepV).value_or(1);
    if (step == 0) valueError("slice step cannot be zero");
    auto clamp = [&](std::optional<int64_t> v, int64_t fallback) {
        if (!v) return fallback;
        int64_t i = *v < 0 ? *v + n : *v;
        if (step > 0) return std::clamp<int64_t>(i, 0, n);
        return std::clamp<int64_t>(i, -1, n - 1);
    };
    const int64_t start = clamp(bound(startV), step > 0 ? 0 : n - 1);
    const int64_t stop = clamp(bound(stopV), step > 0 ? n : -1);
    std::vector<size_t> picked;
    for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step)
        picked.push_back(static_cast<size_t>(i));
    if (object.type == ValueType::String) {
        std::string out;
        for (size_t i : picked) {
            if (characters.empty())
                out.push_back(object.text[i]);
            else
                out += characters[i];
        }
        return Value::fromString(std::move(out));
    }
    ValueList items;
    for (size_t i : picked) items.push_back((*object.items)[i]);
    return Value::list(std::move(items), object.type);
}

Value subscriptValue(const Value& object, const Value& index) {
    switch (object.type) {
        case ValueType::String: {
            if (isAscii(object.text)) {
                return Value::fromString(std::string(
                    1, object.text[sequenceIndex(index, object.text.size(), "string")]));
            }
            auto characters = codePoints(object.text);
            return Value::fromString(characters[sequenceIndex(index, characters.size(), "string")]);
        }
        case ValueType::List:
            return (*object.items)[sequenceIndex(index, object.items->size(), "list")];
        case ValueType::Tuple:
            return (*object.items)[sequenceIndex(index, object.items->size(), "tuple")];
        case ValueType::Dict:
            for (const auto& entry : *object.entries) {
                if (equals(entry.first, index)) return entry.second;
            }
            throw EvalError("KeyError: " + repr(index));
        case ValueType::Null:
            throw NullOperand{};
        default:
            typeError("'" + typeName(object) + "' object is not subscriptable");
    }
}

// ---- built-in functions

void argumentCount(const std::vector<Value>& args, size_t least, size_t most, const char* name) {
    if (args.size() >= least && args.size() <= most) return;
    typeError(std::string(name) + "() takes " +
              (least == most ? std::to_string(least)
                             : std::to_string(least) + " to " + std::to_string(most)) +
              " argument(s) (" + std::to_string(args.size()) + " given)");
}

std::string stripped(const std::string& text) {
    const size_t begin = text.find_first_not_of(" \t\n\r\f\v");
    if (begin == std::string::npos) return "";
    const size_t end = text.find_last_not_of(" \t\n\r\f\v");
    return text.substr(begin, end - begin + 1);
}

// Python's int(): digits with single underscores between them, an optional sign, blanks around.
Value intFromString(const std::string& original) {
    const std::string text = stripped(original);
    std::string digits;
    size_t i = 0;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) digits.push_back(text[i++]);
    bool valid = i < text.size();
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (isDigit(c)) {
            digits.push_back(c);
        } else if (c == '_' && i > 0 && isDigit(text[i - 1]) && i + 1 < text.size() &&
                   isDigit(text[i + 1])) {
            continue;
        } else {
            valid = false;
            break;
        }
    }
    if (!valid)
        valueError("invalid literal for int() with base 10: " + repr(Value::fromString(original)));
    errno = 0;
    long long parsed = std::strtoll(digits.c_str(), nullptr, 10);
    if (errno != 0) throw EvalError("OverflowError: integer does not fit in 64 bits");
    return Value::fromInt(parsed);
}

Value intFromDouble(double d) {
    if (std::isnan(d)) valueError("cannot convert float NaN to integer");
    if (std::isinf(d)) throw EvalError("OverflowError: cannot convert float infinity to integer");
    const double truncated = std::trunc(d);
    if (truncated >= 9.223372036854775807e18 || truncated < -9.223372036854775808e18) {
        throw EvalError("OverflowError: integer does not fit in 64 bits");
    }
    return Value::fromInt(static_cast<int64_t>(truncated));
}

Value toInt(const Value& v) {
    switch (v.type) {
        case ValueType::Null:
            throw NullOperand{};
        case ValueType::Bool:
        case ValueType::Int:
            return Value::fromInt(integral(v));
        case ValueType::Float:
        case ValueType::Decimal:
            return intFromDouble(v.asDouble());
        case ValueType::String:
            return intFromString(v.text);
        default:
            typeError(
                "int() argument must be a string, a bytes-like object or a real number, not '" +
                typeName(v) + "'");
    }
}

Value toFloat(const Value& v) {
    switch (v.type) {
        case ValueType::Null:
            throw NullOperand{};
        case ValueType::String: {
            std::string text = stripped(v.text);
            text.erase(std::remove(text.begin(), text.end(), '_'), text.end());
            std::string lower = Poco::UTF8::toLower(text);
            const std::string unsigned_ =
                !lower.empty() && (lower[0] == '+' || lower[0] == '-') ? lower.substr(1) : lower;
            const bool special =
                unsigned_ == "inf" || unsigned_ == "infinity" || unsigned_ == "nan";
            char* end = nullptr;
            const double d = std::strtod(text.c_str(), &end);
            const bool hex = unsigned_.rfind("0x", 0) == 0;
            if (text.empty() || *end != '\0' || hex ||
                (!special && (unsigned_.find("inf") != std::string::npos ||
                              unsigned_.find("nan") != std::string::npos))) {
                valueError("could not convert string to float: " + repr(v));
            }
            return Value::fromFloat(d);
        }
        default:
            if (v.isNumber()) return Value::fromFloat(v.asDouble());
            typeError("float() argument must be a string or a real number, not '" + typeName(v) +
                      "'");
    }
}

Value md5(const Value& v) {
    if (v.isNull()) throw NullOperand{};
    if (v.type != ValueType::String)
        throw EvalError("AttributeError: '" + typeName(v) + "' object has no attribute 'encode'");
    Poco::MD5Engine engine;
    engine.update(v.text);
    return Value::fromString(Poco::DigestEngine::digestToHex(engine.digest()));
}

// One per thread: streams with maps may be re-pulled on threads of their own at once.
std::mt19937_64& randomEngine() {
    thread_local std::mt19937_64 engine{std::random_device{}()};
    return engine;
}

double random01() { return std::uniform_real_distribution<double>(0.0, 1.0)(randomEngine()); }

size_t length(const Value& v) {
    switch (v.type) {
        case ValueType::Null:
            throw NullOperand{};
        case ValueType::String:
            return isAscii(v.text) ? v.text.size() : codePoints(v.text).size();
        case ValueType::List:
        case ValueType::Tuple:
            return v.items->size();
        case ValueType::Dict:
            return v.entries->size();
        default:
            typeError("object of type '" + typeName(v) + "' has no len()");
    }
}

Value roundValue(const std::vector<Value>& args) {
    argumentCount(args, 1, 2, "round");
    const Value& x = args[0];
    if (x.isNull()) throw NullOperand{};
    if (!x.isNumber()) typeError("type " + typeName(x) + " doesn't define __round__ method");
    if (args.size() == 1 || args[1].isNull()) {
        if (isIntegral(x)) return Value::fromInt(integral(x));
        return intFromDouble(std::nearbyint(x.asDouble()));
    }
    if (!isIntegral(args[1]))
        typeError("'" + typeName(args[1]) + "' object cannot be interpreted as an integer");
    const int64_t digits = integral(args[1]);
    if (isIntegral(x) && digits >= 0) return Value::fromInt(integral(x));
    const double scale = std::pow(10.0, static_cast<double>(digits));
    double scaled = x.asDouble() * scale;
    return Value::fromFloat(std::nearbyint(scaled) / scale);
}

Value extreme(const std::vector<Value>& args, bool wantMax) {
    const ValueList* items = &args;
    if (args.size() == 1) {
        if (args[0].isNull()) throw NullOperand{};
        if (!isSequence(args[0])) typeError("'" + typeName(args[0]) + "' object is not iterable");
        items = args[0].items.get();
    }
    if (items->empty())
        valueError(std::string(wantMax ? "max" : "min") + "() arg is an empty sequence");
    Value best = items->front();
    for (size_t i = 1; i < items->size(); ++i) {
        const int c = compareOrder((*items)[i], best, wantMax ? ">" : "<");
        if ((wantMax && c == 1) || (!wantMax && c == -1)) best = (*items)[i];
    }
    return best;
}

int64_t integerArgument(const Value& v, const char* what) {
    if (v.isNull()) throw NullOperand{};
    if (!isIntegral(v)) typeError(std::string(what) + " must be an integer, not " + typeName(v));
    return integral(v);
}

Value dateTimeFromParts(const std::vector<Value>& args, bool dateOnly) {
    argumentCount(args, 3, dateOnly ? 3 : 7, dateOnly ? "date" : "datetime");
    int64_t parts[7] = {0, 0, 0, 0, 0, 0, 0};
    for (size_t i = 0; i < args.size(); ++i) parts[i] = integerArgument(args[i], "argument");
    if (parts[1] < 1 || parts[1] > 12) valueError("month must be in 1..12");
    if (parts[2] < 1 || parts[2] > 31) valueError("day is out of range for month");
    const int64_t days = daysFromCivil(parts[0], parts[1], parts[2]);
    if (dateOnly) return makeDate(days);
    return makeDateTime(days * kMicrosPerDay +
                            ((parts[3] * 60 + parts[4]) * 60 + parts[5]) * kMicrosPerSecond +
                            parts[6],
                        std::nullopt);
}

Value timeDelta(const std::vector<Value>& args, const std::vector<std::string>& keywords) {
    static const std::vector<std::pair<std::string, double>> kUnits = {
        {"days", 86400e6}, {"seconds", 1e6},  {"microseconds", 1},   {"milliseconds", 1e3},
        {"minutes", 60e6}, {"hours", 3600e6}, {"weeks", 7 * 86400e6}};
    const size_t positional = args.size() - keywords.size();
    if (positional > kUnits.size()) typeError("timedelta() takes at most 7 arguments");
    double micros = 0;
    auto add = [&](const Value& v, double unit) {
        if (v.isNull()) throw NullOperand{};
        if (!v.isNumber()) typeError("unsupported type for timedelta component: " + typeName(v));
        micros += v.asDouble() * unit;
    };
    for (size_t i = 0; i < positional; ++i) add(args[i], kUnits[i].second);
    for (size_t i = 0; i < keywords.size(); ++i) {
        auto unit = std::find_if(kUnits.begin(), kUnits.end(),
                                 [&](const auto& u) { return u.first == keywords[i]; });
        if (unit == kUnits.end())
            typeError("'" + keywords[i] + "' is an invalid keyword argument for timedelta()");
        add(args[positional + i], unit->second);
    }
    return makeTimeDelta(static_cast<int64_t>(std::llround(micros)));
}

Value isoParse(const Value& v, bool dateOnly) {
    if (v.isNull()) throw NullOperand{};
    if (v.type != ValueType::String) typeError("fromisoformat: argument must be str");
    auto parsed = parseIsoDateTime(v.text, dateOnly);
    if (!parsed) valueError("Invalid isoformat string: " + repr(v));
    return *parsed;
}

// The one-argument calls of the hot path, without an argument vector.
std::optional<Value> callUnary(Builtin builtin, const Value& arg) {
    switch (builtin) {
        case Builtin::Md5:
            return md5(arg);
        case Builtin::Bool:
            return Value::fromBool(truthy(arg));
        case Builtin::Int:
            return toInt(arg);
        case Builtin::Float:
            return toFloat(arg);
        case Builtin::Str:
            return Value::fromString(str(arg));
        default:
            return std::nullopt;
    }
}

Value callBuiltin(const Node& node, const std::vector<Value>& args) {
    switch (node.builtin) {
        case Builtin::Md5:
            argumentCount(args, 1, 1, "md5");
            return md5(args[0]);
        case Builtin::Bool:
            argumentCount(args, 0, 1, "bool");
            return Value::fromBool(!args.empty() && truthy(args[0]));
        case Builtin::Int:
            argumentCount(args, 0, 1, "int");
            return args.empty() ? Value::fromInt(0) : toInt(args[0]);
        case Builtin::Float:
            argumentCount(args, 0, 1, "float");
            return args.empty() ? Value::fromFloat(0) : toFloat(args[0]);
        case Builtin::Str:
            argumentCount(args, 0, 1, "str");
            return Value::fromString(args.empty() ? "" : str(args[0]));
        case Builtin::Rand:
            argumentCount(args, 0, 0, "rand");
            return Value::fromFloat(random01());
        case Builtin::RandInt: {
            argumentCount(args, 1, 1, "randint");
            if (args[0].isNull()) throw NullOperand{};
            if (!args[0].isNumber()) unsupported(BinaryOp::Multiply, Value::fromFloat(0), args[0]);
            return intFromDouble(random01() * args[0].asDouble());
        }
        case Builtin::Len:
            argumentCount(args, 1, 1, "len");
            return Value::fromInt(static_cast<int64_t>(length(args[0])));
        case Builtin::Round:
            return roundValue(args);
        case Builtin::Abs: {
            argumentCount(args, 1, 1, "abs");
            const Value& x = args[0];
            if (x.isNull()) throw NullOperand{};
            if (isIntegral(x)) return Value::fromInt(std::llabs(integral(x)));
            if (x.type == ValueType::Decimal)
                return Value::fromDecimal(x.text[0] == '-' ? x.text.substr(1) : x.text);
            if (x.type == ValueType::Float) return Value::fromFloat(std::fabs(x.number));
            if (x.type == ValueType::TimeDelta) return makeTimeDelta(std::llabs(x.integer));
            typeError("bad operand type for abs(): '" + typeName(x) + "'");
        }
        case Builtin::Min:
            if (args.empty()) typeError("min expected at least 1 argument, got 0");
            return extreme(args, false);
        case Builtin::Max:
            if (args.empty()) typeError("max expected at least 1 argument, got 0");
            return extreme(args, true);
        case Builtin::DateTimeNew:
            return dateTimeFromParts(args, false);
        case Builtin::DateTimeNow:
            argumentCount(args, 0, 0, "now");
            return nowUtc(false);
        case Builtin::DateTimeUtcNow:
            argumentCount(args, 0, 0, "utcnow");
            return nowUtc(false);
        case Builtin::DateTimeFromIso:
            argumentCount(args, 1, 1, "fromisoformat");
            return isoParse(args[0], false);
        case Builtin::DateNew:
            return dateTimeFromParts(args, true);
        case Builtin::DateToday: {
            argumentCount(args, 0, 0, "today");
            Value now = nowUtc(false);
            return makeDate(now.integer / kMicrosPerDay);
        }
        case Builtin::DateFromIso:
            argumentCount(args, 1, 1, "fromisoformat");
            return isoParse(args[0], true);
        case Builtin::TimeDelta:
            return timeDelta(args, node.keywords);
    }
    return Value::null();
}

// ---- methods

const std::string kWhitespace = " \t\n\r\f\v";

std::string stringArgument(const std::vector<Value>& args, size_t i, const std::string& method) {
    const Value& v = args[i];
    if (v.isNull()) throw NullOperand{};
    if (v.type != ValueType::String)
        typeError(method + "() argument must be str, not " + typeName(v));
    return v.text;
}

Value splitString(const std::string& text, const std::vector<Value>& args, bool fromRight) {
    argumentCount(args, 0, 2, fromRight ? "rsplit" : "split");
    const bool whitespace = args.empty() || args[0].isNull();
    const std::string separator = whitespace ? "" : stringArgument(args, 0, "split");
    int64_t maxSplit = args.size() > 1 ? integerArgument(args[1], "maxsplit") : -1;
    if (!whitespace && separator.empty()) valueError("empty separator");
    std::vector<std::string> parts;
    if (whitespace) {
        std::vector<std::pair<size_t, size_t>> words;
        size_t i = 0;
        while (i < text.size()) {
            while (i < text.size() && kWhitespace.find(text[i]) != std::string::npos) ++i;
            if (i >= text.size()) break;
            size_t end = i;
            while (end < text.size() && kWhitespace.find(text[end]) == std::string::npos) ++end;
            words.emplace_back(i, end);
            i = end;
        }
        if (maxSplit < 0 || static_cast<size_t>(maxSplit) + 1 >= words.size()) {
            for (auto [b, e] : words) parts.push_back(text.substr(b, e - b));
        } else if (!fromRight) {
            for (int64_t w = 0; w < maxSplit; ++w)
                parts.push_back(text.substr(words[w].first, words[w].second - words[w].first));
            std::string rest = text.substr(words[maxSplit].first);
            parts.push_back(rest.substr(0, rest.find_last_not_of(kWhitespace) + 1));
        } else {
            const size_t keep = words.size() - static_cast<size_t>(maxSplit);
            std::string head = text.substr(0, words[keep - 1].second);
            parts.push_back(head.substr(head.find_first_not_of(kWhitespace)));
            for (size_t w = keep; w < words.size(); ++w)
                parts.push_back(text.substr(words[w].first, words[w].second - words[w].first));
        }
    } else if (!fromRight) {
        size_t start = 0;
        for (;;) {
            size_t found = text.find(separator, start);
            if (found == std::string::npos || maxSplit == 0) break;
            parts.push_back(text.substr(start, found - start));
            start = found + separator.size();
            if (maxSplit > 0) --maxSplit;
        }
        parts.push_back(text.substr(start));
    } else {
        size_t end = text.size();
        std::vector<std::string> reversed;
        for (;;) {
            if (maxSplit == 0 || end < separator.size()) break;
            size_t found = text.rfind(separator, end - separator.size());
            if (found == std::string::npos) break;
            reversed.push_back(
                text.substr(found + separator.size(), end - found - separator.size()));
            end = found;
            if (maxSplit > 0) --maxSplit;
        }
        reversed.push_back(text.substr(0, end));
        parts.assign(reversed.rbegin(), reversed.rend());
    }
    ValueList items;
    for (auto& part : parts) items.push_back(Value::fromString(std::move(part)));
    return Value::list(std::move(items));
}

std::string stripChars(const std::string& text, const std::vector<Value>& args, bool left,
                       bool right, const char* name) {
    argumentCount(args, 0, 1, name);
    const std::string chars =
        args.empty() || args[0].isNull() ? kWhitespace : stringArgument(args, 0, name);
    size_t begin = 0, end = text.size();
    if (left)
        while (begin < end && chars.find(text[begin]) != std::string::npos) ++begin;
    if (right)
        while (end > begin && chars.find(text[end - 1]) != std::string::npos) --end;
    return text.substr(begin, end - begin);
}

bool affix(const std::string& text, const Value& candidate, bool prefix,
           const std::string& method) {
    auto test = [&](const Value& v) {
        if (v.type != ValueType::String)
            typeError(method + " first arg must be str or a tuple of str, not " + typeName(v));
        if (v.text.size() > text.size()) return false;
        return prefix ? text.compare(0, v.text.size(), v.text) == 0
                      : text.compare(text.size() - v.text.size(), v.text.size(), v.text) == 0;
    };
    if (candidate.isNull()) throw NullOperand{};
    if (candidate.type == ValueType::Tuple) {
        return std::any_of(candidate.items->begin(), candidate.items->end(), test);
    }
    return test(candidate);
}

template <typename Predicate>
Value allCharacters(const std::string& text, Predicate predicate) {
    return Value::fromBool(!text.empty() && std::all_of(text.begin(), text.end(), [&](char c) {
        return predicate(static_cast<unsigned char>(c));
    }));
}

std::string titleCase(const std::string& text, bool firstOnly) {
    std::string out = firstOnly ? Poco::UTF8::toLower(text) : text;
    bool start = true;
    for (char& c : out) {
        const bool letter = std::isalpha(static_cast<unsigned char>(c)) != 0;
        if (letter) {
            c = start
                    ? static_cast<char>(std::toupper(static_cast<unsigned char>(c)))
                    : (firstOnly ? c
                                 : static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
            if (firstOnly) return out;
        }
        start = firstOnly ? false : !letter;
    }
    return out;
}

std::string padded(const std::string& text, const std::vector<Value>& args, char where,
                   const char* name) {
    argumentCount(args, 1, 2, name);
    const int64_t width = integerArgument(args[0], "width");
    std::string fill = args.size() > 1 ? stringArgument(args, 1, name) : " ";
    if (fill.size() != 1) typeError(std::string(name) + "() argument 2 must be a single character");
    const int64_t size =
        static_cast<int64_t>(isAscii(text) ? text.size() : codePoints(text).size());
    if (width <= size) return text;
    const size_t missing = static_cast<size_t>(width - size);
    if (where == 'l') return text + std::string(missing, fill[0]);
    if (where == 'r') return std::string(missing, fill[0]) + text;
    const size_t left = missing / 2 + (missing & static_cast<size_t>(width) & 1);
    return std::string(left, fill[0]) + text + std::string(missing - left, fill[0]);
}

Value stringMethod(const std::string& name, const std::string& text,
                   const std::vector<Value>& args) {
    auto noArguments = [&] { argumentCount(args, 0, 0, name.c_str()); };
    if (name == "lower" || name == "casefold") {
        noArguments();
        return Value::fromString(Poco::UTF8::toLower(text));
    }
    if (name == "upper") {
        noArguments();
        return Value::fromString(Poco::UTF8::toUpper(text));
    }
    if (name == "strip") return Value::fromString(stripChars(text, args, true, true, "strip"));
    if (name == "lstrip") return Value::fromString(stripChars(text, args, true, false, "lstrip"));
    if (name == "rstrip") return Value::fromString(stripChars(text, args, false, true, "rstrip"));
    if (name == "split") return splitString(text, args, false);
    if (name == "rsplit") return splitString(text, args, true);
    if (name == "replace") {
        argumentCount(args, 2, 3, "replace");
        const std::string from = stringArgument(args, 0, "replace"),
                          to = stringArgument(args, 1, "replace");
        int64_t count = args.size() > 2 ? integerArgument(args[2], "count") : -1;
        std::string out;
        size_t start = 0;
        if (from.empty()) {
            auto characters = codePoints(text);
            for (size_t i = 0; i <= characters.size(); ++i) {
                if (count != 0) {
                    out += to;
                    if (count > 0) --count;
                }
                if (i < characters.size()) out += characters[i];
            }
            return Value::fromString(std::move(out));
        }
        for (;;) {
            size_t found = text.find(from, start);
            if (found == std::string::npos || count == 0) break;
            out += text.substr(start, found - start) + to;
            start = found + from.size();
            if (count > 0) --count;
        }
        return Value::fromString(out + text.substr(start));
    }
    if (name == "startswith" || name == "endswith") {
        argumentCount(args, 1, 1, name.c_str());
        return Value::fromBool(affix(text, args[0], name == "startswith", name));
    }
    if (name == "title") {
        noArguments();
        return Value::fromString(titleCase(text, false));
    }
    if (name == "capitalize") {
        noArguments();
        return Value::fromString(titleCase(text, true));
    }
    if (name == "swapcase") {
        noArguments();
        std::string out = text;
        for (char& c : out) {
            const auto u = static_cast<unsigned char>(c);
            c = static_cast<char>(std::islower(u) ? std::toupper(u) : std::tolower(u));
        }
        return Value::fromString(out);
    }
    if (name == "find" || name == "rfind" || name == "index" || name == "count") {
        argumentCount(args, 1, 1, name.c_str());
        const std::string needle = stringArgument(args, 0, name);
        if (name == "count") {
            if (needle.empty())
                return Value::fromInt(static_cast<int64_t>(codePoints(text).size() + 1));
            int64_t n = 0;
            for (size_t at = text.find(needle); at != std::string::npos;
                 at = text.find(needle, at + needle.size()))
                ++n;
            return Value::fromInt(n);
        }
        const size_t at = name == "rfind" ? text.rfind(needle) : text.find(needle);
        if (at == std::string::npos) {
            if (name == "index") valueError("substring not found");
            return Value::fromInt(-1);
        }
        return Value::fromInt(static_cast<int64_t>(codePoints(text.substr(0, at)).size()));
    }
    if (name == "join") {
        argumentCount(args, 1, 1, "join");
        if (args[0].isNull()) throw NullOperand{};
        if (!isSequence(args[0])) typeError("can only join an iterable");
        std::string out;
        for (size_t i = 0; i < args[0].items->size(); ++i) {
            const Value& item = (*args[0].items)[i];
            if (item.type != ValueType::String)
                typeError("sequence item " + std::to_string(i) + ": expected str instance, " +
                          typeName(item) + " found");
            if (i > 0) out += text;
            out += item.text;
        }
        return Value::fromString(std::move(out));
    }
    if (name == "zfill") {
        argumentCount(args, 1, 1, "zfill");
        const int64_t width = integerArgument(args[0], "width");
        if (width <= static_cast<int64_t>(text.size())) return Value::fromString(text);
        const bool sign = !text.empty() && (text[0] == '+' || text[0] == '-');
        std::string zeros(static_cast<size_t>(width) - text.size(), '0');
        return Value::fromString(sign ? text.substr(0, 1) + zeros + text.substr(1) : zeros + text);
    }
    if (name == "ljust") return Value::fromString(padded(text, args, 'l', "ljust"));
    if (name == "rjust") return Value::fromString(padded(text, args, 'r', "rjust"));
    if (name == "center") return Value::fromString(padded(text, args, 'c', "center"));
    if (name == "isdigit" || name == "isnumeric" || name == "isdecimal") {
        noArguments();
        return allCharacters(text, [](unsigned char c) { return std::isdigit(c) != 0; });
    }
    if (name == "isalpha") {
        noArguments();
        return allCharacters(text, [](unsigned char c) { return std::isalpha(c) != 0; });
    }
    if (name == "isalnum") {
        noArguments();
        return allCharacters(text, [](unsigned char c) { return std::isalnum(c) != 0; });
    }
    if (name == "isspace") {
        noArguments();
        return allCharacters(text, [](unsigned char c) { return std::isspace(c) != 0; });
    }
    if (name == "islower" || name == "isupper") {
        noArguments();
        const bool lower = name == "islower";
        bool cased = false;
        for (char c : text) {
            const auto u = static_cast<unsigned char>(c);
            if (std::isalpha(u)) {
                cased = true;
                if ((lower && std::isupper(u)) || (!lower && std::islower(u)))
                    return Value::fromBool(false);
            }
        }
        return Value::fromBool(cased);
    }
    if (name == "removeprefix" || name == "removesuffix") {
        argumentCount(args, 1, 1, name.c_str());
        const std::string affixText = stringArgument(args, 0, name);
        if (affix(text, args[0], name == "removeprefix", name)) {
            return Value::fromString(name == "removeprefix"
                                         ? text.substr(affixText.size())
                                         : text.substr(0, text.size() - affixText.size()));
        }
        return Value::fromString(text);
    }
    if (name == "partition" || name == "rpartition") {
        argumentCount(args, 1, 1, name.c_str());
        const std::string separator = stringArgument(args, 0, name);
        if (separator.empty()) valueError("empty separator");
        const size_t at = name == "partition" ? text.find(separator) : text.rfind(separator);
        if (at == std::string::npos) {
            ValueList parts = name == "partition"
                                  ? ValueList{Value::fromString(text), Value::fromString(""),
                                              Value::fromString("")}
                                  : ValueList{Value::fromString(""), Value::fromString(""),
                                              Value::fromString(text)};
            return Value::list(std::move(parts), ValueType::Tuple);
        }
        return Value::list({Value::fromString(text.substr(0, at)), Value::fromString(separator),
                            Value::fromString(text.substr(at + separator.size()))},
                           ValueType::Tuple);
    }
    if (name == "splitlines") {
        noArguments();
        ValueList lines;
        size_t start = 0;
        for (size_t i = 0; i < text.size(); ++i) {
            if (text[i] == '\n' || text[i] == '\r') {
                lines.push_back(Value::fromString(text.substr(start, i - start)));
                if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
                start = i + 1;
            }
        }
        if (start < text.size()) lines.push_back(Value::fromString(text.substr(start)));
        return Value::list(std::move(lines));
    }
    throw EvalError("AttributeError: 'str' object has no attribute '" + name + "'");
}

Value dictMethod(const std::string& name, const Value& dict, const std::vector<Value>& args) {
    if (name == "get") {
        argumentCount(args, 1, 2, "get");
        for (const auto& entry : *dict.entries) {
            if (equals(entry.first, args[0])) return entry.second;
        }
        return args.size() > 1 ? args[1] : Value::null();
    }
    argumentCount(args, 0, 0, name.c_str());
    ValueList out;
    for (const auto& entry : *dict.entries) {
        if (name == "keys")
            out.push_back(entry.first);
        else if (name == "values")
            out.push_back(entry.second);
        else if (name == "items")
            out.push_back(Value::list({entry.first, entry.second}, ValueType::Tuple));
        else
            throw EvalError("AttributeError: 'dict' object has no attribute '" + name + "'");
    }
    return Value::list(std::move(out));
}

Value timeMethod(const std::string& name, const Value& value, const std::vector<Value>& args) {
    const bool isDelta = value.type == ValueType::TimeDelta;
    if (isDelta && name == "total_seconds") {
        argumentCount(args, 0, 0, "total_seconds");
        return Value::fromFloat(static_cast<double>(value.integer) / kMicrosPerSecond);
    }
    if (!isDelta) {
        if (name == "isoformat") {
            argumentCount(args, 0, 1, "isoformat");
            char separator = 'T';
            if (!args.empty()) {
                const std::string s = stringArgument(args, 0, "isoformat");
                if (s.size() != 1) typeError("isoformat() argument 1 must be a unicode character");
                separator = s[0];
            }
            return Value::fromString(dateTimeText(value, separator));
        }
        if (name == "strftime") {
            argumentCount(args, 1, 1, "strftime");
            return Value::fromString(strftime(value, stringArgument(args, 0, "strftime")));
        }
        if (name == "date" && value.type == ValueType::DateTime) {
            argumentCount(args, 0, 0, "date");
            return makeDate(value.integer / kMicrosPerDay - (value.integer % kMicrosPerDay < 0));
        }
        if (name == "timestamp" && value.type == ValueType::DateTime) {
            argumentCount(args, 0, 0, "timestamp");
            return Value::fromFloat(
                static_cast<double>(value.integer - value.offsetSeconds * kMicrosPerSecond) /
                kMicrosPerSecond);
        }
        if (name == "weekday" || name == "isoweekday") {
            argumentCount(args, 0, 0, name.c_str());
            int64_t days = value.integer / kMicrosPerDay - (value.integer % kMicrosPerDay < 0);
            int64_t weekday = ((days % 7) + 7 + 3) % 7;  // 1970-01-01 was a Thursday
            return Value::fromInt(name == "weekday" ? weekday : weekday + 1);
        }
    }
    throw EvalError("AttributeError: '" + typeName(value) + "' object has no attribute '" + name +
                    "'");
}

Value callMethod(const std::string& name, const Value& object, const std::vector<Value>& args) {
    switch (object.type) {
        case ValueType::Null:
            throw NullOperand{};
        case ValueType::String:
            return stringMethod(name, object.text, args);
        case ValueType::Dict:
            return dictMethod(name, object, args);
        case ValueType::List:
        case ValueType::Tuple:
            if (name == "index" || name == "count") {
                argumentCount(args, 1, 1, name.c_str());
                int64_t count = 0;
                for (size_t i = 0; i < object.items->size(); ++i) {
                    if (equals((*object.items)[i], args[0])) {
                        if (name == "index") return Value::fromInt(static_cast<int64_t>(i));
                        ++count;
                    }
                }
                if (name == "index") valueError(repr(args[0]) + " is not in list");
                return Value::fromInt(count);
            }
            break;
        case ValueType::DateTime:
        case ValueType::Date:
        case ValueType::TimeDelta:
            return timeMethod(name, object, args);
        default:
            break;
    }
    throw EvalError("AttributeError: '" + typeName(object) + "' object has no attribute '" + name +
                    "'");
}

Value attribute(const std::string& name, const Value& object) {
    if (object.isNull()) throw NullOperand{};
    if (object.type == ValueType::DateTime || object.type == ValueType::Date) {
        const CivilTime t = civilFromMicros(object.integer);
        if (name == "year") return Value::fromInt(t.year);
        if (name == "month") return Value::fromInt(t.month);
        if (name == "day") return Value::fromInt(t.day);
        if (object.type == ValueType::DateTime) {
            if (name == "hour") return Value::fromInt(t.hour);
            if (name == "minute") return Value::fromInt(t.minute);
            if (name == "second") return Value::fromInt(t.second);
            if (name == "microsecond") return Value::fromInt(t.micros);
        }
    }
    if (object.type == ValueType::TimeDelta) {
        const int64_t days = object.integer / kMicrosPerDay - (object.integer % kMicrosPerDay < 0);
        const int64_t rest = object.integer - days * kMicrosPerDay;
        if (name == "days") return Value::fromInt(days);
        if (name == "seconds") return Value::fromInt(rest / kMicrosPerSecond);
        if (name == "microseconds") return Value::fromInt(rest % kMicrosPerSecond);
    }
    throw EvalError("AttributeError: '" + typeName(object) + "' object has no attribute '" + name +
                    "'");
}

class Evaluator {
public:
    explicit Evaluator(RecordSource& source) : source_(source) {}

    Value eval(const Node& node) {
        switch (node.kind) {
            case NodeKind::Constant:
            case NodeKind::Config:
                return node.constant;
            case NodeKind::Property:
                return source_.property(node.slot);
            case NodeKind::Record:
                return source_.record();
            case NodeKind::Self:
                return Value::null();
            case NodeKind::List:
            case NodeKind::Tuple: {
                ValueList items;
                items.reserve(node.children.size());
                for (const auto& child : node.children) items.push_back(eval(*child));
                return Value::list(std::move(items), node.kind == NodeKind::List
                                                         ? ValueType::List
                                                         : ValueType::Tuple);
            }
            case NodeKind::Dict: {
                ValueDict entries;
                for (size_t i = 0; i + 1 < node.children.size(); i += 2) {
                    Value key = eval(*node.children[i]);
                    Value item = eval(*node.children[i + 1]);
                    if (key.type == ValueType::List || key.type == ValueType::Dict)
                        typeError("unhashable type: '" + typeName(key) + "'");
                    auto existing =
                        std::find_if(entries.begin(), entries.end(),
                                     [&](const auto& e) { return equals(e.first, key); });
                    if (existing != entries.end())
                        existing->second = std::move(item);
                    else
                        entries.emplace_back(std::move(key), std::move(item));
                }
                return Value::dict(std::move(entries));
            }
            case NodeKind::Negate:
            case NodeKind::Positive: {
                Value v = eval(*node.children[0]);
                const bool negate = node.kind == NodeKind::Negate;
                if (isIntegral(v)) {
                    if (negate && integral(v) == INT64_MIN)
                        throw EvalError("OverflowError: integer result does not fit in 64 bits");
                    return Value::fromInt(negate ? -integral(v) : integral(v));
                }
                if (v.type == ValueType::Float)
                    return Value::fromFloat(negate ? -v.number : v.number);
                if (v.type == ValueType::Decimal) {
                    if (!negate) return v;
                    return Value::fromDecimal(v.text[0] == '-' ? v.text.substr(1) : "-" + v.text);
                }
                if (v.type == ValueType::TimeDelta)
                    return makeTimeDelta(negate ? -v.integer : v.integer);
                if (v.isNull()) throw NullOperand{};
                typeError(std::string("bad operand type for unary ") + (negate ? "-" : "+") +
                          ": '" + typeName(v) + "'");
            }
            case NodeKind::Not:
                return Value::fromBool(!truthy(eval(*node.children[0])));
            case NodeKind::And: {
                Value left = eval(*node.children[0]);
                return truthy(left) ? eval(*node.children[1]) : left;
            }
            case NodeKind::Or: {
                Value left = eval(*node.children[0]);
                return truthy(left) ? left : eval(*node.children[1]);
            }
            case NodeKind::Binary: {
                Value leftScratch, rightScratch;
                const Value& left = ref(*node.children[0], leftScratch);
                const Value& right = ref(*node.children[1], rightScratch);
                return arithmetic(node.binary, left, right);
            }
            case NodeKind::Compare: {
                if (node.compares.size() == 1) {
                    Value leftScratch, rightScratch;
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
            case NodeKind::IfElse:
                return truthy(eval(*node.children[0])) ? eval(*node.children[1])
                                                       : eval(*node.children[2]);
            case NodeKind::Subscript: {
                Value objectScratch;
                const Value& object = ref(*node.children[0], objectScratch);
                const Node& index = *node.children[1];
                if (index.kind == NodeKind::Slice) {
                    return slice(object, eval(*index.children[0]), eval(*index.children[1]),
                                 eval(*index.children[2]));
                }
                return subscriptValue(object, eval(index));
            }
            case NodeKind::Slice:
                return Value::null();
            case NodeKind::Attribute: {
                Value scratch;
                return attribute(node.name, ref(*node.children[0], scratch));
            }
            case NodeKind::Method: {
                Value objectScratch;
                const Value& object = ref(*node.children[0], objectScratch);
                std::vector<Value> args;
                for (size_t i = 1; i < node.children.size(); ++i)
                    args.push_back(eval(*node.children[i]));
                return callMethod(node.name, object, args);
            }
            case NodeKind::Function: {
                if (node.children.size() == 1) {
                    Value scratch;
                    if (auto result = callUnary(node.builtin, ref(*node.children[0], scratch))) {
                        return std::move(*result);
                    }
                }
                std::vector<Value> args;
                args.reserve(node.children.size());
                for (const auto& child : node.children) args.push_back(eval(*child));
                return callBuiltin(node, args);
            }
        }
        return Value::null();
    }

private:
    RecordSource& source_;

    // A leaf's value without copying it; anything else is evaluated into `scratch`.
    const Value& ref(const Node& node, Value& scratch) {
        if (node.kind == NodeKind::Property) return source_.property(node.slot);
        if (node.kind == NodeKind::Constant || node.kind == NodeKind::Config) return node.constant;
        scratch = eval(node);
        return scratch;
    }
};

}  // namespace

Value Expression::evaluate(RecordSource& source) const {
    try {
        return Evaluator(source).eval(*root_);
    } catch (const NullOperand&) {
        return Value::null();
    }
}

}  // namespace tapdiffgen::core::maps

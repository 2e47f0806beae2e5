#include "maps/parser.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <optional>

#include "maps/code_points.hpp"
#include "maps/limits.hpp"

namespace tapdiffgen::core::maps {
namespace {

NodePtr node(NodeKind kind) { return std::make_unique<Node>(kind); }

NodePtr constant(Value value) {
    NodePtr n = node(NodeKind::Constant);
    n->constant = std::move(value);
    return n;
}

NodePtr withChildren(NodeKind kind, std::vector<NodePtr> children) {
    NodePtr n = node(kind);
    n->children = std::move(children);
    return n;
}

std::optional<CompareOp> compareSymbol(const std::string& text) {
    if (text == "<") return CompareOp::Less;
    if (text == "<=") return CompareOp::LessEqual;
    if (text == ">") return CompareOp::Greater;
    if (text == ">=") return CompareOp::GreaterEqual;
    if (text == "==") return CompareOp::Equal;
    if (text == "!=") return CompareOp::NotEqual;
    return std::nullopt;
}

// What Python reserves and simpleeval refuses; lambda and comprehensions get a word of their own.
bool isKeywordName(const std::string& word) {
    static const char* const kKeywords[] = {"and",    "or",    "not",    "in",     "is",  "if",
                                            "else",   "for",   "lambda", "import", "def", "class",
                                            "return", "yield", "await",  "async",  "del", "while",
                                            "with",   "from",  "as",     "pass"};
    return std::any_of(std::begin(kKeywords), std::end(kKeywords),
                       [&](const char* keyword) { return word == keyword; });
}

// simpleeval's DISALLOW_PREFIXES and DISALLOW_METHODS.
void checkAllowedName(const std::string& name, const char* what) {
    if (name.size() > 1 && name[0] == '_') {
        throw ExpressionError(std::string(what) + " '" + name +
                              "' is not allowed: names starting with '_' are refused");
    }
    if (name == "format" || name == "format_map" || name == "mro") {
        throw ExpressionError(std::string(what) + " '" + name + "' is not allowed");
    }
}

class Parser {
public:
    Parser(const std::vector<Token>& tokens, const Scope& scope) : tokens_(tokens), scope_(scope) {}

    ParsedExpression parse() {
        NodePtr root = test();
        if (peek().kind != TokenKind::End) unexpected();
        return {std::move(root), usesRecord_};
    }

private:
    const std::vector<Token>& tokens_;
    const Scope& scope_;
    size_t at_ = 0;
    bool usesRecord_ = false;
    size_t depth_ = 0;  // the levels the parse is inside

    // One level deeper while it lives: refused past kMaxNesting, before the parser's recursion
    // (a dozen frames a level) or the evaluator's could exhaust the stack. Each level holds at
    // most the few nodes of one precedence chain, so the tree stays as shallow.
    class Level {
    public:
        explicit Level(Parser& parser) : parser_(parser) { parser_.enter(); }
        ~Level() { --parser_.depth_; }
        Level(const Level&) = delete;
        Level& operator=(const Level&) = delete;

    private:
        Parser& parser_;
    };

    void enter() {
        if (depth_ > kMaxNesting) {
            throw ExpressionError("the expression is nested more than " +
                                  std::to_string(kMaxNesting) + " levels deep (at position " +
                                  std::to_string(peek().position + 1) + ")");
        }
        ++depth_;
    }

    // A name of the datetime module as far as it is spelled out: "datetime.datetime".
    struct ModulePath {
        std::string path;
    };

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
    bool acceptKeyword(const char* word) {
        if (!isKeyword(word)) return false;
        ++at_;
        return true;
    }
    static std::string found(const Token& token) {
        return token.kind == TokenKind::End ? " but the expression ended"
                                            : " but found '" + token.text + "'";
    }
    void expect(const char* op) {
        if (!accept(op)) {
            syntaxError(peek().position, std::string("expected '") + op + "'" + found(peek()));
        }
    }
    [[noreturn]] void unexpected() const {
        const Token& token = peek();
        if (token.kind == TokenKind::End) {
            syntaxError(token.position, "unexpected end of expression");
        }
        syntaxError(token.position, "unexpected '" + token.text + "'");
    }

    // test: or_test ['if' or_test 'else' test], the else branches gathered into one chain.
    NodePtr test() {
        const Level level(*this);
        NodePtr value = orTest();
        if (!isKeyword("if")) return value;
        NodePtr chain = node(NodeKind::IfElse);
        while (acceptKeyword("if")) {
            chain->children.push_back(orTest());
            chain->children.push_back(std::move(value));
            if (!acceptKeyword("else")) {
                syntaxError(peek().position, "expected 'else'" + found(peek()));
            }
            value = orTest();
        }
        chain->children.push_back(std::move(value));
        return chain;
    }

    // One node for `a or b or c` (and for `and`), as Python's BoolOp.
    template <typename Operand>
    NodePtr logicChain(const char* keyword, NodeKind kind, Operand operand) {
        NodePtr first = (this->*operand)();
        if (!isKeyword(keyword)) return first;
        NodePtr chain = node(kind);
        chain->children.push_back(std::move(first));
        while (acceptKeyword(keyword)) chain->children.push_back((this->*operand)());
        return chain;
    }

    NodePtr orTest() { return logicChain("or", NodeKind::Or, &Parser::andTest); }
    NodePtr andTest() { return logicChain("and", NodeKind::And, &Parser::notTest); }

    NodePtr notTest() {
        if (!acceptKeyword("not")) return comparison();
        const Level level(*this);
        std::vector<NodePtr> operand;
        operand.push_back(notTest());
        return withChildren(NodeKind::Not, std::move(operand));
    }

    std::optional<CompareOp> compareOperator() {
        if (peek().kind == TokenKind::Operator) {
            auto op = compareSymbol(peek().text);
            if (op) ++at_;
            return op;
        }
        if (acceptKeyword("in")) return CompareOp::In;
        if (isKeyword("not") && isKeyword("in", 1)) {
            at_ += 2;
            return CompareOp::NotIn;
        }
        if (acceptKeyword("is")) return acceptKeyword("not") ? CompareOp::IsNot : CompareOp::Is;
        return std::nullopt;
    }

    NodePtr comparison() {
        NodePtr first = bitwise();
        NodePtr chain;
        while (auto op = compareOperator()) {
            if (!chain) {
                chain = node(NodeKind::Compare);
                chain->children.push_back(std::move(first));
            }
            chain->compares.push_back(*op);
            chain->children.push_back(bitwise());
        }
        return chain ? std::move(chain) : std::move(first);
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

    std::optional<BinaryOp> additive() {
        if (accept("+")) return BinaryOp::Add;
        if (accept("-")) return BinaryOp::Subtract;
        return std::nullopt;
    }

    std::optional<BinaryOp> multiplicative() {
        if (accept("*")) return BinaryOp::Multiply;
        if (accept("//")) return BinaryOp::FloorDivide;
        if (accept("/")) return BinaryOp::Divide;
        if (accept("%")) return BinaryOp::Modulo;
        return std::nullopt;
    }

    // One node for the operators of one precedence, applied left to right.
    template <typename Operand, typename Operator>
    NodePtr arithmeticChain(Operand operand, Operator nextOperator) {
        NodePtr first = (this->*operand)();
        std::optional<BinaryOp> op = (this->*nextOperator)();
        if (!op) return first;
        NodePtr chain = node(NodeKind::Arithmetic);
        chain->children.push_back(std::move(first));
        for (; op; op = (this->*nextOperator)()) {
            chain->operators.push_back(*op);
            chain->children.push_back((this->*operand)());
        }
        return chain;
    }

    NodePtr arithmetic() { return arithmeticChain(&Parser::term, &Parser::additive); }
    NodePtr term() { return arithmeticChain(&Parser::factor, &Parser::multiplicative); }

    NodePtr factor() {
        const bool negate = isOperator("-");
        if (negate || isOperator("+")) {
            ++at_;
            const Level level(*this);
            std::vector<NodePtr> operand;
            operand.push_back(factor());
            return withChildren(negate ? NodeKind::Negate : NodeKind::Positive, std::move(operand));
        }
        if (isOperator("~")) throw ExpressionError("operator '~' is not allowed");
        return power();
    }

    // power: primary ['**' factor]; right-associative, as Python's.
    NodePtr power() {
        NodePtr base = primary();
        if (!accept("**")) return base;
        NodePtr chain = node(NodeKind::Arithmetic);
        chain->children.push_back(std::move(base));
        chain->operators.push_back(BinaryOp::Power);
        const Level level(*this);
        chain->children.push_back(factor());
        return chain;
    }

    bool atPostfix() const { return isOperator(".") || isOperator("(") || isOperator("["); }

    // An atom and what follows it: attributes, method calls, calls of datetime's functions,
    // subscripts. Each of them puts the value a level deeper in the tree.
    NodePtr primary() {
        std::optional<ModulePath> module;
        NodePtr value = atom(module);
        const size_t depth = depth_;
        while (atPostfix()) {
            enter();
            if (accept(".")) {
                const Token& name = next();
                if (name.kind != TokenKind::Name) {
                    syntaxError(name.position, "expected a name after '.'");
                }
                checkAllowedName(name.text, "attribute");
                if (module) {
                    module->path += "." + name.text;
                } else if (isOperator("(")) {
                    value = method(std::move(value), name.text);
                } else {
                    value = attribute(std::move(value), name.text);
                }
            } else if (isOperator("(")) {
                if (!module) throw ExpressionError("only functions can be called");
                value = function(module->path);
                module.reset();
            } else {
                expect("[");
                if (module) moduleAsValue(*module);
                value = subscript(std::move(value));
            }
        }
        depth_ = depth;
        if (module) moduleAsValue(*module);
        return value;
    }

    [[noreturn]] static void moduleAsValue(const ModulePath& module) {
        if (findFunction(module.path)) {
            throw ExpressionError("function '" + module.path + "' must be called");
        }
        throw ExpressionError("unknown function '" + module.path + "'");
    }

    std::vector<NodePtr> arguments(Keywords& keywords) {
        expect("(");
        std::vector<NodePtr> args;
        while (!isOperator(")")) {
            if (peek().kind == TokenKind::Name && isOperator("=", 1)) {
                keywords.push_back(next().text);
                ++at_;
            } else if (!keywords.empty()) {
                syntaxError(peek().position, "positional argument follows keyword argument");
            }
            if (isOperator("*") || isOperator("**")) {
                throw ExpressionError("argument unpacking is not allowed");
            }
            args.push_back(test());
            if (!accept(",")) break;
        }
        expect(")");
        return args;
    }

    NodePtr attribute(NodePtr object, const std::string& name) {
        std::optional<Attribute> found = findAttribute(name);
        if (!found) throw ExpressionError("unknown attribute '" + name + "'");
        NodePtr n = node(NodeKind::Attribute);
        n->attribute = std::move(*found);
        n->children.push_back(std::move(object));
        return n;
    }

    NodePtr method(NodePtr object, const std::string& name) {
        std::optional<Method> found = findMethod(name);
        if (!found) throw ExpressionError("unknown function '" + name + "'");
        NodePtr n = node(NodeKind::Method);
        n->method = std::move(*found);
        Keywords keywords;
        std::vector<NodePtr> args = arguments(keywords);
        if (!keywords.empty()) throw ExpressionError("'" + name + "' takes no keyword arguments");
        n->children.push_back(std::move(object));
        for (auto& arg : args) n->children.push_back(std::move(arg));
        return n;
    }

    NodePtr function(const std::string& path) {
        const Function* found = findFunction(path);
        if (found == nullptr) throw ExpressionError("unknown function '" + path + "'");
        NodePtr n = node(NodeKind::Function);
        n->function = found;
        n->children = arguments(n->keywords);
        if (!n->keywords.empty() && !found->takesKeywords) {
            throw ExpressionError("'" + path + "' takes no keyword arguments");
        }
        return n;
    }

    NodePtr orNone(NodePtr part) { return part ? std::move(part) : constant(Value::null()); }

    // After '[': an index, or a slice start:stop:step with any part left out.
    NodePtr subscript(NodePtr object) {
        if (isOperator("]")) unexpected();
        NodePtr start = isOperator(":") ? nullptr : test();
        NodePtr index;
        if (accept(":")) {
            NodePtr stop = isOperator(":") || isOperator("]") ? nullptr : test();
            NodePtr step;
            if (accept(":") && !isOperator("]")) step = test();
            std::vector<NodePtr> parts;
            parts.push_back(orNone(std::move(start)));
            parts.push_back(orNone(std::move(stop)));
            parts.push_back(orNone(std::move(step)));
            index = withChildren(NodeKind::Slice, std::move(parts));
        } else {
            index = std::move(start);
        }
        expect("]");
        std::vector<NodePtr> parts;
        parts.push_back(std::move(object));
        parts.push_back(std::move(index));
        return withChildren(NodeKind::Subscript, std::move(parts));
    }

    NodePtr integer(const Token& token) {
        errno = 0;
        const long long parsed = std::strtoll(token.text.c_str(), nullptr, 10);
        if (errno != 0) throw ExpressionError("integer " + token.text + " is too large");
        return constant(Value::fromInt(parsed));
    }

    // simpleeval refuses a literal longer than MAX_STRING_LENGTH (on every record; here once).
    static NodePtr literal(std::string text) {
        const size_t length = characterCount(text);
        if (length > kMaxStringLength) {
            throw ExpressionError("IterableTooLong: a literal of " + std::to_string(length) +
                                  " characters is longer than simpleeval's MAX_STRING_LENGTH of " +
                                  std::to_string(kMaxStringLength));
        }
        return constant(Value::fromString(std::move(text)));
    }

    NodePtr atom(std::optional<ModulePath>& module) {
        const Token& token = next();
        switch (token.kind) {
            case TokenKind::Integer:
                return integer(token);
            case TokenKind::Float:
                return constant(Value::fromFloat(std::strtod(token.text.c_str(), nullptr)));
            case TokenKind::String: {
                // Adjacent literals are one string, as in Python.
                std::string text = token.text;
                while (peek().kind == TokenKind::String) text += next().text;
                return literal(std::move(text));
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
                break;
        }
        unexpected();
    }

    NodePtr property(size_t slot) {
        NodePtr n = node(NodeKind::Property);
        n->slot = slot;
        return n;
    }

    NodePtr name(const Token& token, std::optional<ModulePath>& module) {
        const std::string& word = token.text;
        if (word == "True") return constant(Value::fromBool(true));
        if (word == "False") return constant(Value::fromBool(false));
        if (word == "None") return constant(Value::null());
        if (isKeywordName(word)) {
            if (word == "lambda" || word == "for") {
                throw ExpressionError("'" + word + "' is not allowed");
            }
            syntaxError(token.position, "unexpected '" + word + "'");
        }
        if (word == "_" || word == "record") {
            usesRecord_ = true;
            return node(NodeKind::Record);
        }
        if (word == "config") return constant(scope_.config);
        if (word == "self" && scope_.selfSlot) return property(*scope_.selfSlot);
        auto slot = std::find(scope_.properties.begin(), scope_.properties.end(), word);
        if (slot != scope_.properties.end()) {
            return property(static_cast<size_t>(slot - scope_.properties.begin()));
        }
        if (word == "datetime" || findFunction(word)) {
            module = ModulePath{word};
            return nullptr;
        }
        checkAllowedName(word, "name");
        throw ExpressionError("unknown name '" + word + "'");
    }

    NodePtr parenthesised() {
        if (accept(")")) return node(NodeKind::Tuple);
        NodePtr first = test();
        if (accept(")")) return first;
        NodePtr tuple = node(NodeKind::Tuple);
        tuple->children.push_back(std::move(first));
        while (accept(",")) {
            if (isOperator(")")) break;
            tuple->children.push_back(test());
        }
        if (isKeyword("for")) throw ExpressionError("comprehensions are not supported");
        expect(")");
        return tuple;
    }

    NodePtr listDisplay() {
        NodePtr list = node(NodeKind::List);
        while (!isOperator("]")) {
            list->children.push_back(test());
            if (isKeyword("for")) throw ExpressionError("comprehensions are not supported");
            if (!accept(",")) break;
        }
        expect("]");
        return list;
    }

    NodePtr dictDisplay() {
        NodePtr dict = node(NodeKind::Dict);
        bool isSet = false;
        while (!isOperator("}")) {
            NodePtr key = test();
            if (isKeyword("for")) throw ExpressionError("comprehensions are not supported");
            if (dict->children.empty() && !isOperator(":")) isSet = true;
            dict->children.push_back(std::move(key));
            if (!isSet) {
                expect(":");
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

ParsedExpression parse(const std::vector<Token>& tokens, const Scope& scope) {
    return Parser(tokens, scope).parse();
}

}  // namespace tapdiffgen::core::maps

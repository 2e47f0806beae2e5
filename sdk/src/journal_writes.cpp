#include "tap-diffgen/sdk/journal_writes.hpp"

#include <set>

namespace tapdiffgen::sdk {
namespace {

using Tokens = std::vector<SqlToken>;

// The diffgen column every journal INSERT fills with the journal name.
constexpr std::string_view kJournalColumn = "tablename";

// Words between INSERT and the table's name: MySQL's modifiers, SQLite's OR <conflict>.
bool isInsertModifier(const SqlToken& token) {
    for (std::string_view word : {"LOW_PRIORITY", "DELAYED", "HIGH_PRIORITY", "IGNORE", "OR",
                                  "ROLLBACK", "ABORT", "REPLACE", "FAIL"}) {
        if (token.isKeyword(word)) return true;
    }
    return false;
}

// Words that end a select list.
bool endsSelectList(const SqlToken& token) {
    for (std::string_view word :
         {"FROM", "WHERE", "UNION", "INTERSECT", "EXCEPT", "GROUP", "HAVING", "ORDER", "LIMIT",
          "WINDOW", "INTO", "RETURNING", "ON"}) {
        if (token.isKeyword(word)) return true;
    }
    return token.isSymbol(";");
}

// The value of an expression that is one string literal: 'x', _utf8mb4'x', N'x', 'x'::text,
// 'x' COLLATE c, optionally followed by an alias (select lists); nullopt for anything else.
std::optional<std::string> literalOf(const Tokens& expression) {
    size_t at = 0;
    if (expression.size() > 1 && expression[0].kind == SqlToken::Kind::Word &&
        expression[1].kind == SqlToken::Kind::String &&
        (expression[0].text[0] == '_' || expression[0].isKeyword("N"))) {
        at = 1;  // a character set introducer
    }
    if (at >= expression.size() || expression[at].kind != SqlToken::Kind::String) {
        return std::nullopt;
    }
    const std::string& value = expression[at].text;
    for (++at; at < expression.size(); ++at) {
        const SqlToken& token = expression[at];
        bool typeOrName = token.isName() || token.isSymbol(".") || token.isSymbol("::");
        if (!(typeOrName || token.isKeyword("COLLATE") || token.isKeyword("AS"))) {
            return std::nullopt;
        }
    }
    return value;
}

class JournalReader {
public:
    JournalReader(const Tokens& tokens, const TableName& diffgen, const SqlSpelling& spelling)
        : tokens_(tokens), diffgen_(diffgen), spelling_(spelling) {}

    JournalWrites read() {
        for (at_ = 0; at_ < tokens_.size(); ++at_) {
            const SqlToken& token = tokens_[at_];
            bool replace = token.isKeyword("REPLACE") && peek(1).isKeyword("INTO");
            if (!token.isKeyword("INSERT") && !replace) continue;
            ++at_;
            if (isDiffgenTarget()) readInsert();
        }
        JournalWrites writes;
        writes.writes = inserts_ > 0;
        if (writes.writes && !unknown_ && names_.size() == 1) writes.journalName = *names_.begin();
        return writes;
    }

private:
    const SqlToken& peek(size_t ahead = 0) const {
        static const SqlToken none;
        return at_ + ahead < tokens_.size() ? tokens_[at_ + ahead] : none;
    }

    // Reads the target after INSERT; true (and past it) when it is the diffgen table.
    bool isDiffgenTarget() {
        while (at_ < tokens_.size() && isInsertModifier(peek())) ++at_;
        if (peek().isKeyword("INTO")) ++at_;
        std::vector<const SqlToken*> parts;
        while (peek().isName()) {
            parts.push_back(&tokens_[at_++]);
            if (!peek().isSymbol(".")) break;
            ++at_;
        }
        if (parts.empty() || !namesMatch(*parts.back(), diffgen_.name, spelling_)) return false;
        if (parts.size() >= 2 && diffgen_.schema &&
            !namesMatch(*parts[parts.size() - 2], *diffgen_.schema, spelling_)) {
            return false;
        }
        return true;
    }

    void readInsert() {
        ++inserts_;
        if (peek().isKeyword("AS")) at_ += 2;  // PostgreSQL's alias of the target
        std::optional<size_t> position;
        if (peek().isSymbol("(")) position = columnPosition();
        if (peek().isKeyword("SET")) return readAssignments();
        if (!position) return markUnknown();
        if (peek().isKeyword("VALUES")) return readValues(*position);
        if (peek().isKeyword("SELECT")) return readSelects(*position);
        markUnknown();  // DEFAULT VALUES, WITH ..., anything else
    }

    // Reads "(a, b, c)"; the position of the journal column in it, if it is there.
    std::optional<size_t> columnPosition() {
        std::optional<size_t> position;
        size_t index = 0;
        for (++at_; at_ < tokens_.size() && !peek().isSymbol(")"); ++at_) {
            if (peek().isSymbol(",")) {
                ++index;
            } else if (namesMatch(peek(), kJournalColumn, spelling_)) {
                position = index;
            }
        }
        ++at_;
        return position;
    }

    // Splits a list into its expressions at depth 0, up to `ends` or a closing parenthesis
    // below the list; the cursor stops on the token that ended it.
    template <typename Ends>
    std::vector<Tokens> expressions(Ends ends) {
        std::vector<Tokens> list(1);
        int depth = 0;
        for (; at_ < tokens_.size(); ++at_) {
            const SqlToken& token = peek();
            if (depth == 0 && (ends(token) || token.isSymbol(")"))) break;
            if (token.isSymbol("(")) ++depth;
            if (token.isSymbol(")")) --depth;
            if (depth == 0 && token.isSymbol(",")) {
                list.emplace_back();
            } else {
                list.back().push_back(token);
            }
        }
        return list;
    }

    void note(const std::vector<Tokens>& list, size_t position) {
        if (position >= list.size()) return markUnknown();
        std::optional<std::string> literal = literalOf(list[position]);
        if (!literal) return markUnknown();
        names_.insert(*literal);
    }

    void readValues(size_t position) {
        ++at_;
        while (peek().isSymbol("(")) {
            ++at_;
            note(expressions([](const SqlToken&) { return false; }), position);
            ++at_;
            if (!peek().isSymbol(",")) return;
            ++at_;
        }
    }

    void readSelects(size_t position) {
        while (peek().isKeyword("SELECT")) {
            ++at_;
            if (peek().isKeyword("ALL") || peek().isKeyword("DISTINCT")) ++at_;
            note(expressions(endsSelectList), position);
            skipToNextSelect();
        }
    }

    // Past FROM and WHERE of one SELECT to the SELECT after its UNION, or to the statement's end.
    void skipToNextSelect() {
        int depth = 0;
        for (; at_ < tokens_.size(); ++at_) {
            const SqlToken& token = peek();
            if (token.isSymbol("(")) ++depth;
            if (token.isSymbol(")") && --depth < 0) return;
            if (depth > 0) continue;
            if (token.isSymbol(";")) return;
            if (token.isKeyword("UNION") || token.isKeyword("INTERSECT") ||
                token.isKeyword("EXCEPT")) {
                ++at_;
                if (peek().isKeyword("ALL") || peek().isKeyword("DISTINCT")) ++at_;
                return;
            }
        }
    }

    // MySQL's INSERT ... SET col = expr, ...
    void readAssignments() {
        ++at_;
        bool found = false;
        for (const Tokens& assignment : expressions(endsSelectList)) {
            if (assignment.size() < 2 || !assignment[1].isSymbol("=") ||
                !namesMatch(assignment[0], kJournalColumn, spelling_)) {
                continue;
            }
            std::optional<std::string> literal =
                literalOf(Tokens(assignment.begin() + 2, assignment.end()));
            if (!literal) return markUnknown();
            names_.insert(*literal);
            found = true;
        }
        if (!found) markUnknown();
    }

    void markUnknown() { unknown_ = true; }

    const Tokens& tokens_;
    const TableName& diffgen_;
    const SqlSpelling& spelling_;
    size_t at_ = 0;
    int inserts_ = 0;
    bool unknown_ = false;
    std::set<std::string> names_;
};

}  // namespace

JournalWrites journalWritesOf(const std::vector<SqlToken>& tokens, const TableName& diffgen,
                              const SqlSpelling& spelling) {
    return JournalReader(tokens, diffgen, spelling).read();
}

JournalWrites journalWritesOf(std::string_view sql, const TableName& diffgen,
                              const SqlSpelling& spelling) {
    return journalWritesOf(sqlTokens(sql, spelling), diffgen, spelling);
}

}  // namespace tapdiffgen::sdk

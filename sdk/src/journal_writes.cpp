#include "tap-diffgen/sdk/journal_writes.hpp"

#include <algorithm>
#include <set>

namespace tapdiffgen::sdk {
namespace {

using Tokens = std::vector<SqlToken>;

// The diffgen column every journal INSERT fills with the journal name, and the one it fills
// with the row's key.
constexpr std::string_view kJournalColumn = "tablename";
constexpr std::string_view kKeyColumn = "table_id";

// Where the two columns are in an INSERT's column list.
struct ColumnPositions {
    std::optional<size_t> journalName;
    std::optional<size_t> key;
};

// A column name as the database resolves it: an unquoted name folded where the spelling folds.
std::string columnNameOf(const SqlToken& token, const SqlSpelling& spelling) {
    if (token.kind != SqlToken::Kind::Word || !spelling.foldsUnquotedNames) return token.text;
    std::string folded = token.text;
    for (char& c : folded) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return folded;
}

// The row columns an expression references as NEW.col or OLD.col, in order, each once.
std::vector<std::string> rowColumnsOf(const Tokens& expression, const SqlSpelling& spelling) {
    std::vector<std::string> columns;
    for (size_t at = 0; at + 2 < expression.size(); ++at) {
        const SqlToken& row = expression[at];
        if (!(row.isKeyword("NEW") || row.isKeyword("OLD")) || !expression[at + 1].isSymbol(".") ||
            !expression[at + 2].isName()) {
            continue;
        }
        std::string column = columnNameOf(expression[at + 2], spelling);
        if (std::find(columns.begin(), columns.end(), column) == columns.end()) {
            columns.push_back(std::move(column));
        }
    }
    return columns;
}

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
        if (writes.writes && !keysDiffer_ && !keys_.empty()) writes.keyColumns = keys_;
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
        ColumnPositions positions;
        if (peek().isSymbol("(")) positions = columnPositions();
        if (peek().isKeyword("SET")) return readAssignments();
        if (!positions.journalName) return markUnknown();
        if (peek().isKeyword("VALUES")) return readValues(positions);
        if (peek().isKeyword("SELECT")) return readSelects(positions);
        markUnknown();  // DEFAULT VALUES, WITH ..., anything else
    }

    // Reads "(a, b, c)"; the positions of the journal name and key columns in it.
    ColumnPositions columnPositions() {
        ColumnPositions positions;
        size_t index = 0;
        for (++at_; at_ < tokens_.size() && !peek().isSymbol(")"); ++at_) {
            if (peek().isSymbol(",")) {
                ++index;
            } else if (namesMatch(peek(), kJournalColumn, spelling_)) {
                positions.journalName = index;
            } else if (namesMatch(peek(), kKeyColumn, spelling_)) {
                positions.key = index;
            }
        }
        ++at_;
        return positions;
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

    void note(const std::vector<Tokens>& list, const ColumnPositions& positions) {
        if (positions.key && *positions.key < list.size()) noteKey(list[*positions.key]);
        if (*positions.journalName >= list.size()) return markUnknown();
        std::optional<std::string> literal = literalOf(list[*positions.journalName]);
        if (!literal) return markUnknown();
        names_.insert(*literal);
    }

    // The row columns one table_id value journals.
    void noteKey(const Tokens& value) {
        std::vector<std::string> columns = rowColumnsOf(value, spelling_);
        if (columns.empty()) return;
        if (keys_.empty()) {
            keys_ = std::move(columns);
        } else if (keys_ != columns) {
            keysDiffer_ = true;
        }
    }

    void readValues(const ColumnPositions& positions) {
        ++at_;
        while (peek().isSymbol("(")) {
            ++at_;
            note(expressions([](const SqlToken&) { return false; }), positions);
            ++at_;
            if (!peek().isSymbol(",")) return;
            ++at_;
        }
    }

    void readSelects(const ColumnPositions& positions) {
        while (peek().isKeyword("SELECT")) {
            ++at_;
            if (peek().isKeyword("ALL") || peek().isKeyword("DISTINCT")) ++at_;
            note(expressions(endsSelectList), positions);
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
            if (assignment.size() < 2 || !assignment[1].isSymbol("=")) continue;
            if (namesMatch(assignment[0], kKeyColumn, spelling_)) {
                noteKey(Tokens(assignment.begin() + 2, assignment.end()));
            }
            if (!namesMatch(assignment[0], kJournalColumn, spelling_)) continue;
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
    std::vector<std::string> keys_;
    bool keysDiffer_ = false;
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

// SQL text as tokens, for a driver that reads what a catalog stores as text (a trigger's body, a
// column's default) instead of running it. It knows only what telling words, names, strings
// and punctuation apart needs; it never fails: text it cannot read ends the tokens early.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tapdiffgen::sdk {

/// How a database spells names and strings.
struct SqlSpelling {
    /// PostgreSQL: "name" quotes a name matched exactly, an unquoted name is folded to lower case;
    /// $tag$...$tag$ is a string; E'...' (backslash escapes) is a string the tokens do not decode.
    static SqlSpelling postgres();
    /// MySQL and MariaDB under a trigger's or routine's sql_mode: `name` quotes a name, and so
    /// does "name" with ANSI_QUOTES (else it is a string); a backslash escapes inside a string
    /// unless NO_BACKSLASH_ESCAPES; # starts a comment. Names match without regard to case.
    static SqlSpelling mysql(std::string_view sqlMode);
    /// SQLite: "name", `name` and [name] quote a name; names match without regard to case.
    static SqlSpelling sqlite();

    /// Characters that open a quoted name ('[' closes with ']').
    std::string nameQuotes = "\"";
    bool doubleQuotedStrings = false;
    bool backslashEscapes = false;
    bool hashComments = false;
    bool dollarQuotes = false;
    bool escapeStringPrefix = false;
    /// Unquoted names fold to lower case and quoted ones match exactly (PostgreSQL); otherwise
    /// every name matches without regard to case.
    bool foldsUnquotedNames = false;
};

struct SqlToken {
    enum class Kind {
        Word,         // a keyword or an unquoted name, as written
        QuotedName,   // its text without the quotes, doubled quotes made single
        String,       // its value: quotes removed, escapes resolved
        OtherString,  // a string whose value the tokens do not decode (E'...', U&'...')
        Number,
        Symbol,  // one character, or "::" and ":="
    };
    Kind kind = Kind::Symbol;
    std::string text;

    /// A Word equal to `keyword` without regard to case.
    bool isKeyword(std::string_view keyword) const;
    bool isSymbol(std::string_view symbol) const { return kind == Kind::Symbol && text == symbol; }
    bool isName() const { return kind == Kind::Word || kind == Kind::QuotedName; }
};

/// The tokens of `sql`, comments and white space left out.
std::vector<SqlToken> sqlTokens(std::string_view sql, const SqlSpelling& spelling);

/// Whether the name token `token` names `name` under `spelling` (quoting and case rules).
bool namesMatch(const SqlToken& token, std::string_view name, const SqlSpelling& spelling);

}  // namespace tapdiffgen::sdk

#include "tap-diffgen/sdk/sql_tokens.hpp"

#include <cctype>

namespace tapdiffgen::sdk {
namespace {

bool isWordStart(char c) {
    auto u = static_cast<unsigned char>(c);
    return std::isalpha(u) || c == '_' || u >= 0x80;
}

bool isWordPart(char c) {
    auto u = static_cast<unsigned char>(c);
    return std::isalnum(u) || c == '_' || c == '$' || u >= 0x80;
}

bool sameLetters(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
        if (std::tolower(static_cast<unsigned char>(a[i])) !=
            std::tolower(static_cast<unsigned char>(b[i]))) {
            return false;
        }
    }
    return true;
}

std::string lowered(std::string_view text) {
    std::string out(text);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

class Tokenizer {
public:
    Tokenizer(std::string_view sql, const SqlSpelling& spelling) : sql_(sql), spelling_(spelling) {}

    std::vector<SqlToken> run() {
        while (skipBlank() && at_ < sql_.size()) {
            if (!next()) break;
        }
        return std::move(tokens_);
    }

private:
    char peek(size_t ahead = 0) const {
        return at_ + ahead < sql_.size() ? sql_[at_ + ahead] : '\0';
    }

    // Skips white space and comments; false when a comment never ends.
    bool skipBlank() {
        while (at_ < sql_.size()) {
            char c = peek();
            if (std::isspace(static_cast<unsigned char>(c))) {
                ++at_;
            } else if ((c == '-' && peek(1) == '-') || (c == '#' && spelling_.hashComments)) {
                size_t end = sql_.find('\n', at_);
                at_ = end == std::string_view::npos ? sql_.size() : end + 1;
            } else if (c == '/' && peek(1) == '*') {
                size_t end = sql_.find("*/", at_ + 2);
                if (end == std::string_view::npos) return false;
                at_ = end + 2;
            } else {
                return true;
            }
        }
        return true;
    }

    // Reads a quoted run closed by `close`, a doubled `close` standing for one; with
    // `backslashes`, a backslash takes the next character as it is. False when it never ends.
    bool quoted(char close, bool backslashes, std::string& out) {
        ++at_;
        while (at_ < sql_.size()) {
            char c = sql_[at_++];
            if (backslashes && c == '\\' && at_ < sql_.size()) {
                out.push_back(sql_[at_++]);
            } else if (c == close && peek() == close) {
                out.push_back(close);
                ++at_;
            } else if (c == close) {
                return true;
            } else {
                out.push_back(c);
            }
        }
        return false;
    }

    bool add(SqlToken::Kind kind, std::string text) {
        tokens_.push_back(SqlToken{kind, std::move(text)});
        return true;
    }

    // $tag$...$tag$; a '$' that opens none ($1, a parameter) is a symbol.
    bool dollarQuoted() {
        size_t tagEnd = at_ + 1;
        while (tagEnd < sql_.size() && isWordPart(sql_[tagEnd]) && sql_[tagEnd] != '$') ++tagEnd;
        bool tagged = tagEnd < sql_.size() && sql_[tagEnd] == '$' &&
                      !std::isdigit(static_cast<unsigned char>(peek(1)));
        if (!tagged) {
            ++at_;
            return add(SqlToken::Kind::Symbol, "$");
        }
        std::string_view tag = sql_.substr(at_, tagEnd - at_ + 1);
        size_t end = sql_.find(tag, tagEnd + 1);
        if (end == std::string_view::npos) return false;
        std::string value(sql_.substr(tagEnd + 1, end - tagEnd - 1));
        at_ = end + tag.size();
        return add(SqlToken::Kind::String, std::move(value));
    }

    bool word() {
        size_t start = at_;
        while (at_ < sql_.size() && isWordPart(sql_[at_])) ++at_;
        std::string_view text = sql_.substr(start, at_ - start);
        // E'...' and U&'...': strings whose escapes the tokens do not decode.
        bool escaped = sameLetters(text, "e") && peek() == '\'';
        bool unicode = sameLetters(text, "u") && peek() == '&' && peek(1) == '\'';
        if (spelling_.escapeStringPrefix && (escaped || unicode)) {
            if (unicode) ++at_;
            std::string ignored;
            return quoted('\'', escaped, ignored) &&
                   add(SqlToken::Kind::OtherString, std::string(text));
        }
        return add(SqlToken::Kind::Word, std::string(text));
    }

    bool number() {
        size_t start = at_;
        while (at_ < sql_.size() &&
               (std::isalnum(static_cast<unsigned char>(sql_[at_])) || sql_[at_] == '.')) {
            ++at_;
        }
        return add(SqlToken::Kind::Number, std::string(sql_.substr(start, at_ - start)));
    }

    bool next() {
        char c = peek();
        std::string text;
        if (c == '\'') {
            return quoted('\'', spelling_.backslashEscapes, text) &&
                   add(SqlToken::Kind::String, std::move(text));
        }
        if (c == '"' && spelling_.doubleQuotedStrings) {
            return quoted('"', spelling_.backslashEscapes, text) &&
                   add(SqlToken::Kind::String, std::move(text));
        }
        if (spelling_.nameQuotes.find(c) != std::string::npos) {
            return quoted(c == '[' ? ']' : c, false, text) &&
                   add(SqlToken::Kind::QuotedName, std::move(text));
        }
        if (c == '$' && spelling_.dollarQuotes) return dollarQuoted();
        if (isWordStart(c)) return word();
        if (std::isdigit(static_cast<unsigned char>(c))) return number();
        if ((c == ':' && peek(1) == ':') || (c == ':' && peek(1) == '=')) {
            at_ += 2;
            return add(SqlToken::Kind::Symbol, std::string(sql_.substr(at_ - 2, 2)));
        }
        ++at_;
        return add(SqlToken::Kind::Symbol, std::string(1, c));
    }

    std::string_view sql_;
    const SqlSpelling& spelling_;
    size_t at_ = 0;
    std::vector<SqlToken> tokens_;
};

bool hasMode(std::string_view sqlMode, std::string_view mode) {
    size_t start = 0;
    while (start <= sqlMode.size()) {
        size_t end = sqlMode.find(',', start);
        if (end == std::string_view::npos) end = sqlMode.size();
        if (sameLetters(sqlMode.substr(start, end - start), mode)) return true;
        start = end + 1;
    }
    return false;
}

}  // namespace

SqlSpelling SqlSpelling::postgres() {
    SqlSpelling spelling;
    spelling.dollarQuotes = true;
    spelling.escapeStringPrefix = true;
    spelling.foldsUnquotedNames = true;
    return spelling;
}

SqlSpelling SqlSpelling::mysql(std::string_view sqlMode) {
    SqlSpelling spelling;
    // ANSI includes ANSI_QUOTES.
    bool ansiQuotes = hasMode(sqlMode, "ANSI_QUOTES") || hasMode(sqlMode, "ANSI");
    spelling.nameQuotes = ansiQuotes ? "`\"" : "`";
    spelling.doubleQuotedStrings = !ansiQuotes;
    spelling.backslashEscapes = !hasMode(sqlMode, "NO_BACKSLASH_ESCAPES");
    spelling.hashComments = true;
    return spelling;
}

SqlSpelling SqlSpelling::sqlite() {
    SqlSpelling spelling;
    spelling.nameQuotes = "\"`[";
    return spelling;
}

bool SqlToken::isKeyword(std::string_view keyword) const {
    return kind == Kind::Word && sameLetters(text, keyword);
}

std::vector<SqlToken> sqlTokens(std::string_view sql, const SqlSpelling& spelling) {
    return Tokenizer(sql, spelling).run();
}

bool namesMatch(const SqlToken& token, std::string_view name, const SqlSpelling& spelling) {
    if (!token.isName()) return false;
    if (!spelling.foldsUnquotedNames) return sameLetters(token.text, name);
    return (token.kind == SqlToken::Kind::Word ? lowered(token.text) : token.text) == name;
}

}  // namespace tapdiffgen::sdk

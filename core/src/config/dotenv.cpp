#include "config/dotenv.hpp"

#include <cctype>
#include <optional>

namespace tapdiffgen::core {

namespace {

class DotenvParser {
public:
    explicit DotenvParser(std::string_view text) : text_(text) {}

    DotenvContents parse() {
        while (skipBlank()) {
            if (peek() == '#') {
                skipRestOfLine();
                continue;
            }
            const int line = line_;
            if (!parseStatement()) {
                result_.badLines.push_back(line);
                skipRestOfLine();
            }
        }
        return std::move(result_);
    }

private:
    bool atEnd() const { return pos_ >= text_.size(); }
    char peek() const { return atEnd() ? '\0' : text_[pos_]; }

    char next() {
        const char c = text_[pos_++];
        if (c == '\n') ++line_;
        return c;
    }

    // Skips whitespace including newlines; false at the end of the text.
    bool skipBlank() {
        while (!atEnd() && std::isspace(static_cast<unsigned char>(peek()))) next();
        return !atEnd();
    }

    void skipSpaces() {
        while (peek() == ' ' || peek() == '\t') next();
    }

    void skipRestOfLine() {
        while (!atEnd() && peek() != '\n') next();
    }

    bool atLineEnd() const { return atEnd() || peek() == '\n' || peek() == '\r'; }

    // After a value: only spaces and an optional comment may follow on the line.
    bool finishLine() {
        skipSpaces();
        if (peek() == '#') skipRestOfLine();
        if (peek() == '\r') next();
        return atLineEnd();
    }

    std::string parseKey() {
        std::string key;
        while (!atEnd()) {
            const char c = peek();
            if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' && c != '-') {
                break;
            }
            key += next();
        }
        return key;
    }

    void skipExport() {
        constexpr std::string_view keyword = "export";
        if (text_.substr(pos_, keyword.size()) != keyword) return;
        const std::size_t after = pos_ + keyword.size();
        if (after < text_.size() && (text_[after] == ' ' || text_[after] == '\t')) {
            for (std::size_t i = 0; i < keyword.size(); ++i) next();
            skipSpaces();
        }
    }

    bool parseStatement() {
        skipExport();
        const std::string key = parseKey();
        if (key.empty()) return false;
        skipSpaces();
        // A bare key declares a variable without a value; python-dotenv ignores it too.
        if (peek() != '=') return finishLine();
        next();
        skipSpaces();
        std::optional<std::string> value = parseValue();
        if (!value) return false;
        result_.values.emplace_back(key, std::move(*value));
        return true;
    }

    std::optional<std::string> parseValue() {
        if (peek() == '\'') return finishQuoted(parseSingleQuoted());
        if (peek() == '"') return finishQuoted(parseDoubleQuoted());
        return parseUnquoted();
    }

    std::optional<std::string> finishQuoted(std::optional<std::string> value) {
        if (!value || !finishLine()) return std::nullopt;
        return value;
    }

    std::optional<std::string> parseSingleQuoted() {
        next();
        std::string value;
        while (!atEnd()) {
            const char c = next();
            if (c == '\'') return value;
            if (c == '\\' && (peek() == '\'' || peek() == '\\')) {
                value += next();
            } else {
                value += c;
            }
        }
        return std::nullopt;
    }

    std::optional<std::string> parseDoubleQuoted() {
        next();
        std::string value;
        while (!atEnd()) {
            const char c = next();
            if (c == '"') return value;
            if (c == '\\' && !atEnd()) {
                value += unescape(next());
            } else {
                value += c;
            }
        }
        return std::nullopt;
    }

    static std::string unescape(char c) {
        switch (c) {
            case 'n':
                return "\n";
            case 't':
                return "\t";
            case 'r':
                return "\r";
            case 'a':
                return "\a";
            case 'b':
                return "\b";
            case 'f':
                return "\f";
            case 'v':
                return "\v";
            case '\\':
            case '"':
            case '\'':
                return std::string(1, c);
            default:
                return std::string("\\") + c;
        }
    }

    std::string parseUnquoted() {
        std::string value;
        while (!atEnd() && peek() != '\n') {
            const char c = next();
            // A comment starts at a '#' that follows whitespace.
            if (c == '#' && !value.empty() &&
                std::isspace(static_cast<unsigned char>(value.back()))) {
                skipRestOfLine();
                break;
            }
            value += c;
        }
        while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back()))) {
            value.pop_back();
        }
        return value;
    }

    std::string_view text_;
    std::size_t pos_ = 0;
    int line_ = 1;
    DotenvContents result_;
};

}  // namespace

DotenvContents parseDotenv(std::string_view text) { return DotenvParser(text).parse(); }

}  // namespace tapdiffgen::core

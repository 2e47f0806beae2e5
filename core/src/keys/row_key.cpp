#include "keys/row_key.hpp"

#include <algorithm>
#include <charconv>

#include "keys/key_text.hpp"
#include "singer/json_text.hpp"

namespace tapdiffgen::core {
namespace {

std::string cellCanonical(const TdgCell& cell, const KeyColumn& column) {
    return canonicalCellText(cell, column);
}

// The elements of a JSON array of scalars, as texts: strings unescaped, numbers as written.
// Enough JSON for keys: strings, numbers and booleans; nested values and null are not keys.
class KeyArrayReader {
public:
    explicit KeyArrayReader(std::string_view text) : text_(text) {}

    std::optional<std::vector<std::string>> read(std::string& why) {
        std::vector<std::string> items;
        skipSpace();
        if (!take('[')) return fail(why, "is not a JSON array");
        skipSpace();
        if (take(']')) return finish(items, why);
        for (;;) {
            skipSpace();
            std::string item;
            if (peek() == '"') {
                if (!readString(item)) return fail(why, "has an invalid JSON string");
            } else if (!readWord(item) && !readNumber(item)) {
                return fail(why, "may hold only strings, numbers and booleans");
            }
            items.push_back(std::move(item));
            skipSpace();
            if (take(']')) return finish(items, why);
            if (!take(',')) return fail(why, "is not a valid JSON array");
        }
    }

private:
    std::string_view text_;
    size_t at_ = 0;

    char peek() const { return at_ < text_.size() ? text_[at_] : '\0'; }
    bool take(char c) {
        if (peek() != c) return false;
        ++at_;
        return true;
    }
    void skipSpace() {
        while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\t' ||
                                      text_[at_] == '\n' || text_[at_] == '\r')) {
            ++at_;
        }
    }
    std::optional<std::vector<std::string>> fail(std::string& why, const char* what) {
        why = what;
        return std::nullopt;
    }
    std::optional<std::vector<std::string>> finish(std::vector<std::string>& items,
                                                   std::string& why) {
        skipSpace();
        if (at_ != text_.size()) return fail(why, "has text after the JSON array");
        return std::move(items);
    }
    bool readNumber(std::string& out) {
        size_t start = at_;
        take('-');
        while (std::isdigit(static_cast<unsigned char>(peek())) || peek() == '.' || peek() == 'e' ||
               peek() == 'E' || peek() == '+' || peek() == '-') {
            ++at_;
        }
        out.assign(text_.substr(start, at_ - start));
        return !out.empty() && out != "-";
    }
    bool readWord(std::string& out) {
        for (std::string_view word : {"true", "false"}) {
            if (text_.substr(at_, word.size()) == word) {
                out.assign(word);
                at_ += word.size();
                return true;
            }
        }
        return false;
    }
    bool readHex4(uint32_t& value) {
        if (at_ + 4 > text_.size()) return false;
        auto result = std::from_chars(text_.data() + at_, text_.data() + at_ + 4, value, 16);
        if (result.ptr != text_.data() + at_ + 4) return false;
        at_ += 4;
        return true;
    }
    bool readEscape(std::string& out) {
        char c = peek();
        ++at_;
        switch (c) {
            case '"':
                out.push_back('"');
                return true;
            case '\\':
                out.push_back('\\');
                return true;
            case '/':
                out.push_back('/');
                return true;
            case 'b':
                out.push_back('\b');
                return true;
            case 'f':
                out.push_back('\f');
                return true;
            case 'n':
                out.push_back('\n');
                return true;
            case 'r':
                out.push_back('\r');
                return true;
            case 't':
                out.push_back('\t');
                return true;
            case 'u': {
                uint32_t code = 0;
                if (!readHex4(code)) return false;
                if (code >= 0xD800 && code < 0xDC00) {
                    uint32_t low = 0;
                    if (!take('\\') || !take('u') || !readHex4(low) || low < 0xDC00 ||
                        low >= 0xE000) {
                        return false;
                    }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                }
                appendUtf8(out, code);
                return true;
            }
            default:
                return false;
        }
    }
    bool readString(std::string& out) {
        take('"');
        while (at_ < text_.size()) {
            char c = text_[at_++];
            if (c == '"') return true;
            if (c == '\\') {
                if (!readEscape(out)) return false;
            } else {
                out.push_back(c);
            }
        }
        return false;
    }
};

void appendCanonicalArray(std::string& out, const std::vector<std::string>& parts,
                          const KeySpec& key) {
    out.push_back('[');
    for (size_t i = 0; i < parts.size(); ++i) {
        if (i > 0) out.push_back(',');
        appendCanonicalJson(out, key.columns[i].kind, parts[i]);
    }
    out.push_back(']');
}

}  // namespace

std::string KeyReadFailure::describe(std::string_view tableId, const KeySpec& key) const {
    std::string out = "journals key '" + std::string(tableId) + "'";
    if (column < 0) return out + ", which " + why;
    const KeyColumn& keyColumn = key.columns[static_cast<size_t>(column)];
    if (key.composite()) out += " whose value '" + value + "'";
    out += " for column '" + keyColumn.name + "' (" +
           (keyColumn.sqlType.empty() ? std::string("its type") : keyColumn.sqlType) + "), which ";
    out += fault == KeyTextFault::CannotHold ? "that column cannot hold"
                                             : "is not a value of that type";
    return out;
}

std::optional<RowKey> parseTableId(std::string_view tableId, const KeySpec& key,
                                   KeyReadFailure& failure) {
    KeyTextFault fault = KeyTextFault::Unreadable;
    if (!key.composite()) {
        auto canonical = canonicalKeyText(tableId, key.columns[0], &fault);
        if (!canonical) {
            failure = KeyReadFailure{0, fault, std::string(tableId), {}};
            return std::nullopt;
        }
        return RowKey(std::move(*canonical));
    }
    std::string why;
    auto items = KeyArrayReader(tableId).read(why);
    if (!items) {
        failure = KeyReadFailure{-1, KeyTextFault::Unreadable, {}, why};
        return std::nullopt;
    }
    if (items->size() != key.columns.size()) {
        failure = KeyReadFailure{-1,
                                 KeyTextFault::Unreadable,
                                 {},
                                 "has " + std::to_string(items->size()) + " values, the key has " +
                                     std::to_string(key.columns.size()) + " columns"};
        return std::nullopt;
    }
    std::vector<std::string> columns;
    for (size_t i = 0; i < items->size(); ++i) {
        auto part = canonicalKeyText((*items)[i], key.columns[i], &fault);
        if (!part) {
            failure = KeyReadFailure{static_cast<int>(i), fault, (*items)[i], {}};
            return std::nullopt;
        }
        columns.push_back(std::move(*part));
    }
    std::string canonical;
    appendCanonicalArray(canonical, columns, key);
    return RowKey(std::move(canonical), std::move(columns));
}

std::string canonicalKeyOfRow(const TdgCell* cells, const std::vector<size_t>& keyPositions,
                              const KeySpec& key) {
    if (!key.composite()) return cellCanonical(cells[keyPositions[0]], key.columns[0]);
    std::vector<std::string> parts;
    parts.reserve(keyPositions.size());
    for (size_t i = 0; i < keyPositions.size(); ++i) {
        parts.push_back(cellCanonical(cells[keyPositions[i]], key.columns[i]));
    }
    std::string out;
    appendCanonicalArray(out, parts, key);
    return out;
}

}  // namespace tapdiffgen::core

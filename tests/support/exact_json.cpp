#include "support/exact_json.hpp"

#include <algorithm>
#include <stdexcept>

namespace tapdiffgen::testing {

class ExactJsonParser {
public:
    explicit ExactJsonParser(std::string_view text) : text_(text) {}

    ExactJson document() {
        ExactJson value = parseValue(0);
        skipSpace();
        if (at_ != text_.size()) fail("text after the value");
        return value;
    }

private:
    // Deeper than any document of the tests; keeps a hostile line from exhausting the stack.
    static constexpr int kMaxDepth = 200;

    std::string_view text_;
    size_t at_ = 0;

    [[noreturn]] void fail(const std::string& what) const {
        throw std::invalid_argument("JSON: " + what + " at offset " + std::to_string(at_));
    }

    static bool isDigit(char c) { return c >= '0' && c <= '9'; }

    void skipSpace() {
        while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\t' ||
                                      text_[at_] == '\n' || text_[at_] == '\r')) {
            ++at_;
        }
    }

    void expect(char c) {
        if (at_ >= text_.size() || text_[at_] != c) fail(std::string("expected '") + c + "'");
        ++at_;
    }

    ExactJson parseValue(int depth) {
        if (depth > kMaxDepth) fail("nesting too deep");
        skipSpace();
        if (at_ >= text_.size()) fail("missing value");
        ExactJson value;
        char c = text_[at_];
        if (c == '{') {
            value.type_ = ExactJson::Type::Object;
            ++at_;
            skipSpace();
            if (at_ < text_.size() && text_[at_] == '}') {
                ++at_;
                return value;
            }
            for (;;) {
                skipSpace();
                std::string name = parseString();
                skipSpace();
                expect(':');
                value.members_.emplace_back(std::move(name), parseValue(depth + 1));
                skipSpace();
                if (at_ < text_.size() && text_[at_] == ',') {
                    ++at_;
                    continue;
                }
                expect('}');
                return value;
            }
        }
        if (c == '[') {
            value.type_ = ExactJson::Type::Array;
            ++at_;
            skipSpace();
            if (at_ < text_.size() && text_[at_] == ']') {
                ++at_;
                return value;
            }
            for (;;) {
                value.items_.push_back(parseValue(depth + 1));
                skipSpace();
                if (at_ < text_.size() && text_[at_] == ',') {
                    ++at_;
                    continue;
                }
                expect(']');
                return value;
            }
        }
        if (c == '"') {
            value.type_ = ExactJson::Type::String;
            value.scalar_ = parseString();
            return value;
        }
        for (const char* literal : {"true", "false", "null"}) {
            std::string_view word(literal);
            if (text_.substr(at_, word.size()) == word) {
                at_ += word.size();
                value.type_ = word == "null" ? ExactJson::Type::Null : ExactJson::Type::Bool;
                if (word != "null") value.scalar_ = literal;
                return value;
            }
        }
        value.type_ = ExactJson::Type::Number;
        value.scalar_ = parseNumber();
        return value;
    }

    size_t digits() {
        size_t start = at_;
        while (at_ < text_.size() && isDigit(text_[at_])) ++at_;
        return at_ - start;
    }

    std::string parseNumber() {
        size_t start = at_;
        if (at_ < text_.size() && text_[at_] == '-') ++at_;
        if (at_ < text_.size() && text_[at_] == '0') {
            ++at_;
        } else if (digits() == 0) {
            fail("not a JSON value");
        }
        if (at_ < text_.size() && text_[at_] == '.') {
            ++at_;
            if (digits() == 0) fail("no digit after the decimal point");
        }
        if (at_ < text_.size() && (text_[at_] == 'e' || text_[at_] == 'E')) {
            ++at_;
            if (at_ < text_.size() && (text_[at_] == '+' || text_[at_] == '-')) ++at_;
            if (digits() == 0) fail("no digit in the exponent");
        }
        return std::string(text_.substr(start, at_ - start));
    }

    unsigned hex4() {
        if (at_ + 4 > text_.size()) fail("short \\u escape");
        unsigned value = 0;
        for (int i = 0; i < 4; ++i) {
            char c = text_[at_++];
            value <<= 4;
            if (isDigit(c)) {
                value |= static_cast<unsigned>(c - '0');
            } else if (c >= 'a' && c <= 'f') {
                value |= static_cast<unsigned>(c - 'a' + 10);
            } else if (c >= 'A' && c <= 'F') {
                value |= static_cast<unsigned>(c - 'A' + 10);
            } else {
                fail("bad \\u escape");
            }
        }
        return value;
    }

    static void appendUtf8(std::string& out, unsigned code) {
        if (code < 0x80) {
            out.push_back(static_cast<char>(code));
        } else if (code < 0x800) {
            out.push_back(static_cast<char>(0xC0 | (code >> 6)));
            out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
        } else if (code < 0x10000) {
            out.push_back(static_cast<char>(0xE0 | (code >> 12)));
            out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
            out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
        } else {
            out.push_back(static_cast<char>(0xF0 | (code >> 18)));
            out.push_back(static_cast<char>(0x80 | ((code >> 12) & 0x3F)));
            out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
            out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
        }
    }

    std::string parseString() {
        expect('"');
        std::string out;
        for (;;) {
            if (at_ >= text_.size()) fail("unterminated string");
            char c = text_[at_++];
            if (c == '"') return out;
            if (static_cast<unsigned char>(c) < 0x20) fail("raw control character in a string");
            if (c != '\\') {
                out.push_back(c);
                continue;
            }
            if (at_ >= text_.size()) fail("unterminated escape");
            char escaped = text_[at_++];
            switch (escaped) {
                case '"':
                case '\\':
                case '/':
                    out.push_back(escaped);
                    break;
                case 'b':
                    out.push_back('\b');
                    break;
                case 'f':
                    out.push_back('\f');
                    break;
                case 'n':
                    out.push_back('\n');
                    break;
                case 'r':
                    out.push_back('\r');
                    break;
                case 't':
                    out.push_back('\t');
                    break;
                case 'u': {
                    unsigned code = hex4();
                    if (code >= 0xD800 && code <= 0xDBFF) {
                        if (text_.substr(at_, 2) != "\\u") fail("lone high surrogate");
                        at_ += 2;
                        unsigned low = hex4();
                        if (low < 0xDC00 || low > 0xDFFF) fail("bad low surrogate");
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                    } else if (code >= 0xDC00 && code <= 0xDFFF) {
                        fail("lone low surrogate");
                    }
                    appendUtf8(out, code);
                    break;
                }
                default:
                    fail("bad escape");
            }
        }
    }
};

ExactJson ExactJson::parse(std::string_view text) { return ExactJsonParser(text).document(); }

bool ExactJson::has(const std::string& name) const {
    return std::any_of(members_.begin(), members_.end(),
                       [&](const auto& member) { return member.first == name; });
}

ExactJson ExactJson::withMembersOf(const ExactJson& changes) const {
    ExactJson merged = *this;
    for (const auto& [name, value] : changes.members_) {
        auto own = std::find_if(merged.members_.begin(), merged.members_.end(),
                                [&](const auto& member) { return member.first == name; });
        if (own != merged.members_.end()) {
            own->second = value;
        } else {
            merged.members_.emplace_back(name, value);
        }
    }
    return merged;
}

std::vector<std::string> ExactJson::memberNames() const {
    std::vector<std::string> names;
    for (const auto& member : members_) names.push_back(member.first);
    return names;
}

const ExactJson& ExactJson::at(const std::string& name) const {
    for (const auto& member : members_) {
        if (member.first == name) return member.second;
    }
    throw std::out_of_range("JSON: no member '" + name + "'");
}

namespace {

void appendCanonicalString(std::string& out, const std::string& text) {
    static const char kHex[] = "0123456789abcdef";
    out.push_back('"');
    for (char c : text) {
        auto byte = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out.push_back('\\');
            out.push_back(c);
        } else if (byte < 0x20) {
            out += "\\u00";
            out.push_back(kHex[byte >> 4]);
            out.push_back(kHex[byte & 0xF]);
        } else {
            out.push_back(c);
        }
    }
    out.push_back('"');
}

}  // namespace

void ExactJson::appendCanonical(std::string& out) const {
    switch (type_) {
        case Type::Null:
            out += "null";
            return;
        case Type::Bool:
        case Type::Number:
            out += scalar_;
            return;
        case Type::String:
            appendCanonicalString(out, scalar_);
            return;
        case Type::Array:
            out.push_back('[');
            for (size_t i = 0; i < items_.size(); ++i) {
                if (i > 0) out.push_back(',');
                items_[i].appendCanonical(out);
            }
            out.push_back(']');
            return;
        case Type::Object: {
            std::vector<const std::pair<std::string, ExactJson>*> sorted;
            for (const auto& member : members_) sorted.push_back(&member);
            std::stable_sort(sorted.begin(), sorted.end(),
                             [](const auto* a, const auto* b) { return a->first < b->first; });
            out.push_back('{');
            for (size_t i = 0; i < sorted.size(); ++i) {
                if (i > 0) out.push_back(',');
                appendCanonicalString(out, sorted[i]->first);
                out.push_back(':');
                sorted[i]->second.appendCanonical(out);
            }
            out.push_back('}');
            return;
        }
    }
}

std::string ExactJson::canonical() const {
    std::string out;
    appendCanonical(out);
    return out;
}

std::string canonicalJson(std::string_view text) { return ExactJson::parse(text).canonical(); }

}  // namespace tapdiffgen::testing

// str's methods, and md5 (the SDK's, which hashes a str). Case mapping follows Poco's Unicode
// tables; the character classes (isalpha, ...) are ASCII's.
#include <Poco/MD5Engine.h>
#include <Poco/UTF8String.h>

#include <algorithm>
#include <cctype>

#include "maps/builtins.hpp"
#include "maps/code_points.hpp"
#include "maps/limits.hpp"

namespace tapdiffgen::core::maps {
namespace {

const std::string kWhitespace = " \t\n\r\f\v";

Value md5Of(const Value& v) {
    if (v.isNull()) throw NullOperand{};
    if (v.type != ValueType::String) {
        throw EvalError("AttributeError: '" + typeName(v) + "' object has no attribute 'encode'");
    }
    Poco::MD5Engine engine;
    engine.update(v.text);
    return Value::fromString(Poco::DigestEngine::digestToHex(engine.digest()));
}

Value md5Call(const Arguments& args, const Keywords&) {
    argumentCount(args, 1, 1, "md5");
    return md5Of(args[0]);
}

Value strLower(const Value& self, const Arguments& args) {
    argumentCount(args, 0, 0, "lower");
    return Value::fromString(Poco::UTF8::toLower(self.text));
}

Value strCasefold(const Value& self, const Arguments& args) {
    argumentCount(args, 0, 0, "casefold");
    return Value::fromString(Poco::UTF8::toLower(self.text));
}

Value strUpper(const Value& self, const Arguments& args) {
    argumentCount(args, 0, 0, "upper");
    return Value::fromString(Poco::UTF8::toUpper(self.text));
}

std::string stripChars(const std::string& text, const Arguments& args, bool left, bool right,
                       const char* name) {
    argumentCount(args, 0, 1, name);
    const std::string& chars =
        args.empty() || args[0].isNull() ? kWhitespace : stringArgument(args, 0, name);
    size_t begin = 0, end = text.size();
    if (left) {
        while (begin < end && chars.find(text[begin]) != std::string::npos) ++begin;
    }
    if (right) {
        while (end > begin && chars.find(text[end - 1]) != std::string::npos) --end;
    }
    return text.substr(begin, end - begin);
}

Value strStrip(const Value& self, const Arguments& args) {
    return Value::fromString(stripChars(self.text, args, true, true, "strip"));
}
Value strLstrip(const Value& self, const Arguments& args) {
    return Value::fromString(stripChars(self.text, args, true, false, "lstrip"));
}
Value strRstrip(const Value& self, const Arguments& args) {
    return Value::fromString(stripChars(self.text, args, false, true, "rstrip"));
}

// The [begin, end) byte ranges of the words between runs of white space.
std::vector<std::pair<size_t, size_t>> words(const std::string& text) {
    std::vector<std::pair<size_t, size_t>> out;
    size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && kWhitespace.find(text[i]) != std::string::npos) ++i;
        if (i >= text.size()) break;
        size_t end = i;
        while (end < text.size() && kWhitespace.find(text[end]) == std::string::npos) ++end;
        out.emplace_back(i, end);
        i = end;
    }
    return out;
}

// split() and rsplit() with no separator: runs of white space separate, none is kept.
std::vector<std::string> splitWords(const std::string& text, int64_t maxSplit, bool fromRight) {
    const auto found = words(text);
    auto word = [&](size_t w) {
        return text.substr(found[w].first, found[w].second - found[w].first);
    };
    std::vector<std::string> parts;
    if (maxSplit < 0 || static_cast<size_t>(maxSplit) + 1 >= found.size()) {
        for (size_t w = 0; w < found.size(); ++w) parts.push_back(word(w));
    } else if (!fromRight) {
        for (int64_t w = 0; w < maxSplit; ++w) parts.push_back(word(static_cast<size_t>(w)));
        std::string rest = text.substr(found[static_cast<size_t>(maxSplit)].first);
        parts.push_back(rest.substr(0, rest.find_last_not_of(kWhitespace) + 1));
    } else {
        const size_t keep = found.size() - static_cast<size_t>(maxSplit);
        std::string head = text.substr(0, found[keep - 1].second);
        parts.push_back(head.substr(head.find_first_not_of(kWhitespace)));
        for (size_t w = keep; w < found.size(); ++w) parts.push_back(word(w));
    }
    return parts;
}

std::vector<std::string> splitOn(const std::string& text, const std::string& separator,
                                 int64_t maxSplit) {
    std::vector<std::string> parts;
    size_t start = 0;
    for (;;) {
        size_t found = text.find(separator, start);
        if (found == std::string::npos || maxSplit == 0) break;
        parts.push_back(text.substr(start, found - start));
        start = found + separator.size();
        if (maxSplit > 0) --maxSplit;
    }
    parts.push_back(text.substr(start));
    return parts;
}

std::vector<std::string> splitOnFromRight(const std::string& text, const std::string& separator,
                                          int64_t maxSplit) {
    size_t end = text.size();
    std::vector<std::string> reversed;
    while (maxSplit != 0 && end >= separator.size()) {
        size_t found = text.rfind(separator, end - separator.size());
        if (found == std::string::npos) break;
        reversed.push_back(text.substr(found + separator.size(), end - found - separator.size()));
        end = found;
        if (maxSplit > 0) --maxSplit;
    }
    reversed.push_back(text.substr(0, end));
    return {reversed.rbegin(), reversed.rend()};
}

Value splitString(const std::string& text, const Arguments& args, bool fromRight) {
    const char* name = fromRight ? "rsplit" : "split";
    argumentCount(args, 0, 2, name);
    const bool whitespace = args.empty() || args[0].isNull();
    const int64_t maxSplit = args.size() > 1 ? integerArgument(args[1], "maxsplit") : -1;
    std::vector<std::string> parts;
    if (whitespace) {
        parts = splitWords(text, maxSplit, fromRight);
    } else {
        const std::string& separator = stringArgument(args, 0, "split");
        if (separator.empty()) valueError("empty separator");
        parts = fromRight ? splitOnFromRight(text, separator, maxSplit)
                          : splitOn(text, separator, maxSplit);
    }
    ValueList items;
    for (auto& part : parts) items.push_back(Value::fromString(std::move(part)));
    return Value::list(std::move(items));
}

Value strSplit(const Value& self, const Arguments& args) {
    return splitString(self.text, args, false);
}
Value strRsplit(const Value& self, const Arguments& args) {
    return splitString(self.text, args, true);
}

// How many times replace() replaces: every occurrence, or `count` of them at most.
size_t replacements(const std::string& text, const std::string& from, int64_t count) {
    if (from.empty()) return characterCount(text) + 1;
    size_t found = 0;
    for (size_t at = text.find(from);
         at != std::string::npos && (count < 0 || static_cast<int64_t>(found) < count);
         at = text.find(from, at + from.size())) {
        ++found;
    }
    return found;
}

// A replacement longer than what it replaces grows the text: checked before it is built.
void checkReplacedLength(const std::string& text, const std::string& from, const std::string& to,
                         int64_t count) {
    if (to.size() <= from.size() || count == 0) return;
    const double grown =
        static_cast<double>(characterCount(to)) - static_cast<double>(characterCount(from));
    const double length = static_cast<double>(characterCount(text)) +
                          static_cast<double>(replacements(text, from, count)) * grown;
    checkGrownLength(length, std::max(characterCount(text), characterCount(to)));
}

Value strReplace(const Value& self, const Arguments& args) {
    argumentCount(args, 2, 3, "replace");
    const std::string& text = self.text;
    const std::string& from = stringArgument(args, 0, "replace");
    const std::string& to = stringArgument(args, 1, "replace");
    int64_t count = args.size() > 2 ? integerArgument(args[2], "count") : -1;
    checkReplacedLength(text, from, to, count);
    std::string out;
    if (from.empty()) {
        // Python inserts `to` before every character and at the end.
        const auto characters = codePoints(text);
        for (size_t i = 0; i <= characters.size(); ++i) {
            if (count != 0) {
                out += to;
                if (count > 0) --count;
            }
            if (i < characters.size()) out += characters[i];
        }
        return Value::fromString(std::move(out));
    }
    size_t start = 0;
    for (;;) {
        size_t found = text.find(from, start);
        if (found == std::string::npos || count == 0) break;
        out.append(text, start, found - start);
        out += to;
        start = found + from.size();
        if (count > 0) --count;
    }
    out.append(text, start);
    return Value::fromString(std::move(out));
}

bool affix(const std::string& text, const Value& candidate, bool prefix,
           const std::string& method) {
    auto test = [&](const Value& v) {
        if (v.type != ValueType::String) {
            typeError(method + " first arg must be str or a tuple of str, not " + typeName(v));
        }
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

Value strStartswith(const Value& self, const Arguments& args) {
    argumentCount(args, 1, 1, "startswith");
    return Value::fromBool(affix(self.text, args[0], true, "startswith"));
}
Value strEndswith(const Value& self, const Arguments& args) {
    argumentCount(args, 1, 1, "endswith");
    return Value::fromBool(affix(self.text, args[0], false, "endswith"));
}

Value withoutAffix(const Value& self, const Arguments& args, bool prefix) {
    const char* name = prefix ? "removeprefix" : "removesuffix";
    argumentCount(args, 1, 1, name);
    const std::string& text = self.text;
    const size_t size = stringArgument(args, 0, name).size();
    if (!affix(text, args[0], prefix, name)) return Value::fromString(text);
    return Value::fromString(prefix ? text.substr(size) : text.substr(0, text.size() - size));
}

Value strRemoveprefix(const Value& self, const Arguments& args) {
    return withoutAffix(self, args, true);
}
Value strRemovesuffix(const Value& self, const Arguments& args) {
    return withoutAffix(self, args, false);
}

std::string titleCase(const std::string& text, bool firstOnly) {
    std::string out = firstOnly ? Poco::UTF8::toLower(text) : text;
    bool start = true;
    for (char& c : out) {
        const auto u = static_cast<unsigned char>(c);
        const bool letter = std::isalpha(u) != 0;
        if (letter) {
            if (start) {
                c = static_cast<char>(std::toupper(u));
            } else if (!firstOnly) {
                c = static_cast<char>(std::tolower(u));
            }
            if (firstOnly) return out;
        }
        start = firstOnly ? false : !letter;
    }
    return out;
}

Value strTitle(const Value& self, const Arguments& args) {
    argumentCount(args, 0, 0, "title");
    return Value::fromString(titleCase(self.text, false));
}

Value strCapitalize(const Value& self, const Arguments& args) {
    argumentCount(args, 0, 0, "capitalize");
    return Value::fromString(titleCase(self.text, true));
}

Value strSwapcase(const Value& self, const Arguments& args) {
    argumentCount(args, 0, 0, "swapcase");
    std::string out = self.text;
    for (char& c : out) {
        const auto u = static_cast<unsigned char>(c);
        c = static_cast<char>(std::islower(u) ? std::toupper(u) : std::tolower(u));
    }
    return Value::fromString(std::move(out));
}

// find, rfind and index: the needle's position in characters.
Value position(const Value& self, const Arguments& args, const char* name, bool fromRight,
               bool mustFind) {
    argumentCount(args, 1, 1, name);
    const std::string& text = self.text;
    const std::string& needle = stringArgument(args, 0, name);
    const size_t at = fromRight ? text.rfind(needle) : text.find(needle);
    if (at == std::string::npos) {
        if (mustFind) valueError("substring not found");
        return Value::fromInt(-1);
    }
    return Value::fromInt(
        static_cast<int64_t>(characterCount(std::string_view(text).substr(0, at))));
}

Value strFind(const Value& self, const Arguments& args) {
    return position(self, args, "find", false, false);
}
Value strRfind(const Value& self, const Arguments& args) {
    return position(self, args, "rfind", true, false);
}
Value strIndex(const Value& self, const Arguments& args) {
    return position(self, args, "index", false, true);
}

Value strCount(const Value& self, const Arguments& args) {
    argumentCount(args, 1, 1, "count");
    const std::string& text = self.text;
    const std::string& needle = stringArgument(args, 0, "count");
    if (needle.empty()) return Value::fromInt(static_cast<int64_t>(characterCount(text) + 1));
    int64_t n = 0;
    for (size_t at = text.find(needle); at != std::string::npos;
         at = text.find(needle, at + needle.size())) {
        ++n;
    }
    return Value::fromInt(n);
}

void checkJoinedLength(const std::string& separator, const ValueList& items) {
    size_t bytes = items.empty() ? 0 : separator.size() * (items.size() - 1);
    for (const Value& item : items) bytes += item.text.size();
    if (bytes <= kMaxStringLength) return;  // no more characters than bytes
    double length = static_cast<double>(characterCount(separator)) *
                    static_cast<double>(items.empty() ? 0 : items.size() - 1);
    size_t longest = characterCount(separator);
    for (const Value& item : items) {
        const size_t characters = characterCount(item.text);
        length += static_cast<double>(characters);
        longest = std::max(longest, characters);
    }
    checkGrownLength(length, static_cast<double>(longest));
}

Value strJoin(const Value& self, const Arguments& args) {
    argumentCount(args, 1, 1, "join");
    if (args[0].isNull()) throw NullOperand{};
    if (!args[0].isSequence()) typeError("can only join an iterable");
    const ValueList& items = *args[0].items;
    checkJoinedLength(self.text, items);
    std::string out;
    for (size_t i = 0; i < items.size(); ++i) {
        if (items[i].type != ValueType::String) {
            typeError("sequence item " + std::to_string(i) + ": expected str instance, " +
                      typeName(items[i]) + " found");
        }
        if (i > 0) out += self.text;
        out += items[i].text;
    }
    return Value::fromString(std::move(out));
}

Value strZfill(const Value& self, const Arguments& args) {
    argumentCount(args, 1, 1, "zfill");
    const std::string& text = self.text;
    const int64_t width = integerArgument(args[0], "width");
    if (width <= static_cast<int64_t>(text.size())) return Value::fromString(text);
    checkGrownLength(static_cast<double>(width), static_cast<double>(text.size()));
    const bool sign = !text.empty() && (text[0] == '+' || text[0] == '-');
    std::string zeros(static_cast<size_t>(width) - text.size(), '0');
    return Value::fromString(sign ? text.substr(0, 1) + zeros + text.substr(1) : zeros + text);
}

enum class Alignment { Left, Right, Center };

Value padded(const Value& self, const Arguments& args, Alignment alignment, const char* name) {
    argumentCount(args, 1, 2, name);
    const std::string& text = self.text;
    const int64_t width = integerArgument(args[0], "width");
    const std::string fill = args.size() > 1 ? stringArgument(args, 1, name) : " ";
    if (fill.size() != 1) typeError(std::string(name) + "() argument 2 must be a single character");
    const auto size = static_cast<int64_t>(characterCount(text));
    if (width <= size) return Value::fromString(text);
    checkGrownLength(static_cast<double>(width), static_cast<double>(size));
    const auto missing = static_cast<size_t>(width - size);
    if (alignment == Alignment::Left)
        return Value::fromString(text + std::string(missing, fill[0]));
    if (alignment == Alignment::Right)
        return Value::fromString(std::string(missing, fill[0]) + text);
    // Python's center puts the odd one out on the left when the width is odd.
    const size_t left = missing / 2 + (missing & static_cast<size_t>(width) & 1);
    return Value::fromString(std::string(left, fill[0]) + text +
                             std::string(missing - left, fill[0]));
}

Value strLjust(const Value& self, const Arguments& args) {
    return padded(self, args, Alignment::Left, "ljust");
}
Value strRjust(const Value& self, const Arguments& args) {
    return padded(self, args, Alignment::Right, "rjust");
}
Value strCenter(const Value& self, const Arguments& args) {
    return padded(self, args, Alignment::Center, "center");
}

// isdigit() and its kin: not empty, and every byte in the ASCII class.
Value allInClass(const Value& self, const Arguments& args, const char* name, int (*inClass)(int)) {
    argumentCount(args, 0, 0, name);
    const std::string& text = self.text;
    return Value::fromBool(!text.empty() && std::all_of(text.begin(), text.end(), [&](char c) {
        return inClass(static_cast<unsigned char>(c)) != 0;
    }));
}

int asciiDigit(int c) { return std::isdigit(c); }
int asciiAlpha(int c) { return std::isalpha(c); }
int asciiAlnum(int c) { return std::isalnum(c); }
int asciiSpace(int c) { return std::isspace(c); }

Value strIsdigit(const Value& self, const Arguments& args) {
    return allInClass(self, args, "isdigit", asciiDigit);
}
Value strIsnumeric(const Value& self, const Arguments& args) {
    return allInClass(self, args, "isnumeric", asciiDigit);
}
Value strIsdecimal(const Value& self, const Arguments& args) {
    return allInClass(self, args, "isdecimal", asciiDigit);
}
Value strIsalpha(const Value& self, const Arguments& args) {
    return allInClass(self, args, "isalpha", asciiAlpha);
}
Value strIsalnum(const Value& self, const Arguments& args) {
    return allInClass(self, args, "isalnum", asciiAlnum);
}
Value strIsspace(const Value& self, const Arguments& args) {
    return allInClass(self, args, "isspace", asciiSpace);
}

// islower() and isupper(): some cased character, and none of the other case.
Value casedAs(const Value& self, const Arguments& args, bool lower) {
    argumentCount(args, 0, 0, lower ? "islower" : "isupper");
    bool cased = false;
    for (char c : self.text) {
        const auto u = static_cast<unsigned char>(c);
        if (!std::isalpha(u)) continue;
        cased = true;
        if ((lower && std::isupper(u)) || (!lower && std::islower(u)))
            return Value::fromBool(false);
    }
    return Value::fromBool(cased);
}

Value strIslower(const Value& self, const Arguments& args) { return casedAs(self, args, true); }
Value strIsupper(const Value& self, const Arguments& args) { return casedAs(self, args, false); }

Value partitioned(const Value& self, const Arguments& args, bool fromRight) {
    const char* name = fromRight ? "rpartition" : "partition";
    argumentCount(args, 1, 1, name);
    const std::string& text = self.text;
    const std::string& separator = stringArgument(args, 0, name);
    if (separator.empty()) valueError("empty separator");
    const size_t at = fromRight ? text.rfind(separator) : text.find(separator);
    if (at == std::string::npos) {
        const Value whole = Value::fromString(text), empty = Value::fromString("");
        return Value::list(
            fromRight ? ValueList{empty, empty, whole} : ValueList{whole, empty, empty},
            ValueType::Tuple);
    }
    return Value::list({Value::fromString(text.substr(0, at)), Value::fromString(separator),
                        Value::fromString(text.substr(at + separator.size()))},
                       ValueType::Tuple);
}

Value strPartition(const Value& self, const Arguments& args) {
    return partitioned(self, args, false);
}
Value strRpartition(const Value& self, const Arguments& args) {
    return partitioned(self, args, true);
}

Value strSplitlines(const Value& self, const Arguments& args) {
    argumentCount(args, 0, 0, "splitlines");
    const std::string& text = self.text;
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

constexpr Function kStringFunctions[] = {
    {"md5", md5Call, md5Of, false, true},
};

constexpr MethodEntry kStringMethods[] = {
    {"lower", Receiver::String, strLower},
    {"casefold", Receiver::String, strCasefold},
    {"upper", Receiver::String, strUpper},
    {"strip", Receiver::String, strStrip},
    {"lstrip", Receiver::String, strLstrip},
    {"rstrip", Receiver::String, strRstrip},
    {"split", Receiver::String, strSplit},
    {"rsplit", Receiver::String, strRsplit},
    {"replace", Receiver::String, strReplace},
    {"startswith", Receiver::String, strStartswith},
    {"endswith", Receiver::String, strEndswith},
    {"removeprefix", Receiver::String, strRemoveprefix},
    {"removesuffix", Receiver::String, strRemovesuffix},
    {"title", Receiver::String, strTitle},
    {"capitalize", Receiver::String, strCapitalize},
    {"swapcase", Receiver::String, strSwapcase},
    {"find", Receiver::String, strFind},
    {"rfind", Receiver::String, strRfind},
    {"index", Receiver::String, strIndex},
    {"count", Receiver::String, strCount},
    {"join", Receiver::String, strJoin},
    {"zfill", Receiver::String, strZfill},
    {"ljust", Receiver::String, strLjust},
    {"rjust", Receiver::String, strRjust},
    {"center", Receiver::String, strCenter},
    {"isdigit", Receiver::String, strIsdigit},
    {"isnumeric", Receiver::String, strIsnumeric},
    {"isdecimal", Receiver::String, strIsdecimal},
    {"isalpha", Receiver::String, strIsalpha},
    {"isalnum", Receiver::String, strIsalnum},
    {"isspace", Receiver::String, strIsspace},
    {"islower", Receiver::String, strIslower},
    {"isupper", Receiver::String, strIsupper},
    {"partition", Receiver::String, strPartition},
    {"rpartition", Receiver::String, strRpartition},
    {"splitlines", Receiver::String, strSplitlines},
};

}  // namespace

std::span<const Function> stringFunctions() { return kStringFunctions; }
std::span<const MethodEntry> stringMethods() { return kStringMethods; }

}  // namespace tapdiffgen::core::maps

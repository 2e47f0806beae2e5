#include "types.hpp"

#include <cctype>
#include <charconv>
#include <string>

namespace tapdiffgen::sqlite {
namespace {

std::string upper(std::string_view text) {
    std::string out(text);
    for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

std::string_view trim(std::string_view text) {
    size_t begin = text.find_first_not_of(" \t\r\n");
    if (begin == std::string_view::npos) return {};
    size_t end = text.find_last_not_of(" \t\r\n");
    return text.substr(begin, end - begin + 1);
}

// The name before any "(...)", e.g. "UNSIGNED BIG INT" or "DECIMAL".
std::string_view baseName(std::string_view type) { return trim(type.substr(0, type.find('('))); }

int parseNumber(std::string_view text) {
    text = trim(text);
    int value = -1;
    auto parsed = std::from_chars(text.data(), text.data() + text.size(), value);
    if (parsed.ec != std::errc() || parsed.ptr != text.data() + text.size()) return -1;
    return value;
}

// "(12, 2)" → precision 12, scale 2; "(10)" → scale 0. SQLite itself ignores these numbers.
ColumnType decimalType(std::string_view type) {
    ColumnType column{TDG_KIND_DECIMAL, -1, -1};
    size_t open = type.find('(');
    size_t close = type.find(')', open);
    if (open == std::string_view::npos || close == std::string_view::npos) return column;
    std::string_view arguments = type.substr(open + 1, close - open - 1);
    size_t comma = arguments.find(',');
    column.precision = parseNumber(arguments.substr(0, comma));
    if (column.precision < 0) return ColumnType{TDG_KIND_DECIMAL, -1, -1};
    column.scale = comma == std::string_view::npos ? 0 : parseNumber(arguments.substr(comma + 1));
    // Past PostgreSQL's own limit a scale is a typo, not a format to pad values to.
    if (column.scale < 0 || column.scale > 1000) return ColumnType{TDG_KIND_DECIMAL, -1, -1};
    return column;
}

bool contains(const std::string& text, const char* fragment) {
    return text.find(fragment) != std::string::npos;
}

// SQLite's own rules, in its order.
TdgValueKind kindByAffinity(const std::string& type) {
    if (contains(type, "INT")) return TDG_KIND_INT64;
    if (contains(type, "CHAR") || contains(type, "CLOB") || contains(type, "TEXT")) {
        return TDG_KIND_TEXT;
    }
    // No declared type has BLOB affinity too, but such columns mostly hold text in practice,
    // which BYTES would send as hex.
    if (type.empty()) return TDG_KIND_TEXT;
    if (contains(type, "BLOB")) return TDG_KIND_BYTES;
    // REAL affinity and NUMERIC affinity both hold numbers.
    return TDG_KIND_DECIMAL;
}

}  // namespace

ColumnType columnTypeFor(std::string_view declared) {
    std::string type = upper(trim(declared));
    std::string base(baseName(type));
    if (base == "BOOLEAN" || base == "BOOL") return {TDG_KIND_BOOL};
    if (base == "DATE") return {TDG_KIND_DATE};
    if (base == "DATETIME" || base.starts_with("TIMESTAMP")) return {TDG_KIND_TIMESTAMP};
    if (base == "TIME") return {TDG_KIND_TIME};
    if (base == "JSON") return {TDG_KIND_JSON};
    // By affinity a UUID column would be numeric, and its values (text or 16-byte blobs) sent
    // as NULL.
    if (base == "UUID") return {TDG_KIND_TEXT, -1, -1, true};
    if (base == "NUMERIC" || base == "DECIMAL") return decimalType(type);
    return {kindByAffinity(type)};
}

}  // namespace tapdiffgen::sqlite

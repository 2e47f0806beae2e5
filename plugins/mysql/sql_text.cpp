#include "sql_text.hpp"

#include <cctype>

#include "tap-diffgen/sdk/values.hpp"

namespace tapdiffgen::mysql {

std::string quoteName(std::string_view name) { return sdk::quoteIdentifier(name, '`'); }

std::string quoteTable(const sdk::TableName& table) {
    return sdk::quoteTableName(table.schema, table.name, '`');
}

std::string columnList(const std::vector<std::string_view>& columns) {
    std::string list;
    for (std::string_view column : columns) {
        if (!list.empty()) list += ", ";
        list += quoteName(column);
    }
    return list;
}

std::string lowerCase(std::string_view text) {
    std::string out(text);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string placeholders(size_t count) {
    std::string list = "?";
    list.reserve(count * 3);
    for (size_t i = 1; i < count; ++i) list += ", ?";
    return list;
}

size_t keyListSize(size_t count) {
    for (size_t size : {1, 16, 64, 256, 1024, 2048}) {
        if (count <= size) return size;
    }
    return kMaxKeysPerStatement;
}

size_t nameListSize(size_t count) {
    size_t size = 1;
    while (size < count) size *= 2;
    return size;
}

}  // namespace tapdiffgen::mysql

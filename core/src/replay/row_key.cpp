#include "replay/row_key.hpp"

#include <algorithm>
#include <charconv>

#include "singer/json_text.hpp"

namespace tapdiffgen::core {
namespace {

std::string lowered(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

bool isDigits(std::string_view text) {
    return !text.empty() &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

std::optional<std::string> normalizeKeyText(std::string_view tableId, TdgValueKind kind,
                                            bool caseInsensitive) {
    if (kind == TDG_KIND_INT64 || kind == TDG_KIND_DECIMAL) {
        // A numeric key may have been journalled from a text column: "  42" is row 42.
        while (!tableId.empty() && tableId.front() == ' ') tableId.remove_prefix(1);
        while (!tableId.empty() && tableId.back() == ' ') tableId.remove_suffix(1);
    }
    if (kind == TDG_KIND_INT64) {
        int64_t value = 0;
        auto result = std::from_chars(tableId.data(), tableId.data() + tableId.size(), value);
        if (result.ec != std::errc() || result.ptr != tableId.data() + tableId.size()) {
            return std::nullopt;
        }
        std::string out;
        appendInt64(out, value);
        return out;
    }
    if (kind == TDG_KIND_DECIMAL) {
        // Unsigned 64-bit keys arrive as decimal text: compare without leading zeros.
        if (!isDigits(tableId)) return std::nullopt;
        size_t first = tableId.find_first_not_of('0');
        return first == std::string_view::npos ? "0" : std::string(tableId.substr(first));
    }
    return caseInsensitive ? lowered(tableId) : std::string(tableId);
}

std::string normalizeKeyCell(const TdgCell& cell, bool caseInsensitive) {
    if (cell.kind == TDG_KIND_INT64 || cell.kind == TDG_KIND_BOOL) {
        std::string out;
        appendInt64(out, cell.i64);
        return out;
    }
    std::string_view text(cell.data, static_cast<size_t>(cell.size));
    auto normalized = normalizeKeyText(text, cell.kind, caseInsensitive);
    return normalized ? *normalized : std::string(text);
}

void appendKeyJson(std::string& out, TdgValueKind kind, std::string_view normalizedKey) {
    if (kind == TDG_KIND_INT64 || kind == TDG_KIND_DECIMAL) {
        out += normalizedKey;
    } else {
        appendJsonString(out, normalizedKey);
    }
}

}  // namespace tapdiffgen::core

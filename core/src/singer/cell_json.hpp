// A driver's cell written as the JSON value of a RECORD member: what the renderer writes for a
// column and what stream maps write for a property passed through, so both agree to the byte.
// Inline: every cell of every record goes through it, and the renderer lives in another file.
#pragma once

#include <string>
#include <string_view>

#include "singer/json_text.hpp"
#include "tap-diffgen/dialect_abi.h"

namespace tapdiffgen::core {

/// Writes one cell as a JSON value (see TdgValueKind for the text forms); a NULL cell is null.
inline void appendCellJson(std::string& out, const TdgCell& cell) {
    const std::string_view text(cell.data, static_cast<size_t>(cell.size));
    switch (cell.kind) {
        case TDG_KIND_BOOL:
            out += cell.i64 != 0 ? "true" : "false";
            return;
        case TDG_KIND_INT64:
            appendInt64(out, cell.i64);
            return;
        case TDG_KIND_DECIMAL:
            if (cell.size == 0) {
                out += "null";
            } else {
                out += text;
            }
            return;
        case TDG_KIND_JSON:
            if (cell.size == 0) {
                out += "null";
            } else {
                appendJsonDocument(out, text);
            }
            return;
        case TDG_KIND_BYTES:
            appendHexString(out, text);
            return;
        case TDG_KIND_TIMESTAMP:
            out.push_back('"');
            out += text;
            out += "+00:00\"";
            return;
        case TDG_KIND_TEXT:
        case TDG_KIND_DATE:
        case TDG_KIND_TIME:
        case TDG_KIND_TIMESTAMPTZ:
            appendJsonString(out, text);
            return;
        default:
            out += "null";
    }
}

}  // namespace tapdiffgen::core

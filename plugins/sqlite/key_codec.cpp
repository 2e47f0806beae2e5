#include "key_codec.hpp"

#include <charconv>
#include <string>

#include "tap-diffgen/sdk/key_text.hpp"

namespace tapdiffgen::sqlite {

uint8_t keySupportOf(TdgValueKind kind) {
    switch (kind) {
        case TDG_KIND_INT64:
        case TDG_KIND_TEXT:
        case TDG_KIND_BYTES:
        case TDG_KIND_DATE:
            return TDG_KEY_SUPPORT_YES;
        default:
            // Numbers stored as REAL, and times and booleans in any of SQLite's spellings, have
            // no one text a key could name them by.
            return TDG_KEY_SUPPORT_NO;
    }
}

void bindKey(Cursor& cursor, int index, std::string_view key, TdgValueKind kind) {
    if (kind == TDG_KIND_INT64) {
        int64_t value = 0;
        auto parsed = std::from_chars(key.data(), key.data() + key.size(), value);
        if (parsed.ec == std::errc() && parsed.ptr == key.data() + key.size()) {
            cursor.bindInt64(index, value);
            return;
        }
    }
    std::string bytes;
    if (kind == TDG_KIND_BYTES && sdk::bytesOfKeyText(key, bytes)) {
        cursor.bindBlob(index, bytes);
        return;
    }
    cursor.bindText(index, key);
}

}  // namespace tapdiffgen::sqlite

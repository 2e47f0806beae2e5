#include "cells.hpp"

#include <array>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <optional>
#include <string>

#include "decimal_text.hpp"
#include "tap-diffgen/sdk/time_text.hpp"
#include "tap-diffgen/sdk/values.hpp"
#include "timestamp_text.hpp"

namespace tapdiffgen::sqlite {
namespace {

// A cell's text, or nullopt when the stored value does not fit the kind.
using Converted = std::optional<std::string>;

const char* storageName(int storage) {
    switch (storage) {
        case SQLITE_INTEGER:
            return "an INTEGER";
        case SQLITE_FLOAT:
            return "a REAL";
        case SQLITE_TEXT:
            return "a TEXT";
        default:
            return "a BLOB";
    }
}

const char* kindExpectation(TdgValueKind kind) {
    switch (kind) {
        case TDG_KIND_BOOL:
            return "a boolean";
        case TDG_KIND_INT64:
            return "a 64-bit integer";
        case TDG_KIND_DECIMAL:
            return "a finite number";
        case TDG_KIND_JSON:
            return "valid JSON";
        case TDG_KIND_DATE:
            return "a date (YYYY-MM-DD)";
        case TDG_KIND_TIME:
            return "a time of day";
        case TDG_KIND_TIMESTAMP:
            return "a date and time";
        default:
            return "text";
    }
}

std::string lower(std::string_view text) {
    std::string out(text);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// 2^63: the first double beyond int64_t.
constexpr double kInt64Limit = 9223372036854775808.0;

std::optional<int64_t> integerValue(const Cursor& cursor, int index, int storage) {
    if (storage == SQLITE_INTEGER) return cursor.int64(index);
    if (storage != SQLITE_FLOAT) return std::nullopt;
    // An INTEGER column keeps a REAL only when it has a fraction or is out of range; a whole
    // REAL in range still names an integer exactly.
    double value = sqlite3_column_double(cursor.row(), index);
    if (value != std::trunc(value) || value < -kInt64Limit || value >= kInt64Limit) {
        return std::nullopt;
    }
    return static_cast<int64_t>(value);
}

std::optional<bool> boolValue(const Cursor& cursor, int index, int storage) {
    if (storage == SQLITE_INTEGER) return cursor.int64(index) != 0;
    if (storage == SQLITE_FLOAT) return sqlite3_column_double(cursor.row(), index) != 0.0;
    if (storage != SQLITE_TEXT) return std::nullopt;
    // BOOLEAN has NUMERIC affinity, so words written by other programs stay text.
    static constexpr std::array<const char*, 5> kTrue = {"true", "t", "yes", "y", "on"};
    static constexpr std::array<const char*, 5> kFalse = {"false", "f", "no", "n", "off"};
    std::string word = lower(cursor.text(index));
    for (const char* candidate : kTrue) {
        if (word == candidate) return true;
    }
    for (const char* candidate : kFalse) {
        if (word == candidate) return false;
    }
    return std::nullopt;
}

Converted decimalText(const Cursor& cursor, int index, int storage, int scale) {
    if (storage == SQLITE_INTEGER) {
        int64_t value = cursor.int64(index);
        return scale >= 0 ? integerDecimal(value, scale) : std::to_string(value);
    }
    if (storage == SQLITE_FLOAT) {
        double value = sqlite3_column_double(cursor.row(), index);
        return scale >= 0 ? fixedDecimal(value, scale) : sdk::formatDouble(value);
    }
    // NUMERIC affinity leaves text that is no number literal as text; a literal that stayed
    // text (e.g. from a column without affinity) is sent with its exact digits.
    if (storage == SQLITE_TEXT && sdk::isJsonNumber(cursor.text(index))) {
        return std::string(cursor.text(index));
    }
    return std::nullopt;
}

Converted plainText(const Cursor& cursor, int index, int storage) {
    if (storage == SQLITE_FLOAT) {
        // SQLite's own text form keeps only 15 significant digits.
        if (auto shortest = sdk::formatDouble(sqlite3_column_double(cursor.row(), index))) {
            return shortest;
        }
    }
    return std::string(cursor.text(index));
}

// A uuid's canonical text: lower case, from a text in any case or from its 16 raw bytes.
Converted uuidText(const Cursor& cursor, int index, int storage) {
    static const char* hex = "0123456789abcdef";
    std::string out;
    if (storage == SQLITE_BLOB && sqlite3_column_bytes(cursor.row(), index) == 16) {
        const auto* bytes =
            static_cast<const unsigned char*>(sqlite3_column_blob(cursor.row(), index));
        for (int i = 0; i < 16; ++i) {
            if (i == 4 || i == 6 || i == 8 || i == 10) out.push_back('-');
            out.push_back(hex[bytes[i] >> 4]);
            out.push_back(hex[bytes[i] & 0xF]);
        }
        return out;
    }
    if (storage != SQLITE_TEXT) return std::nullopt;
    out = lower(cursor.text(index));
    if (out.size() != 36) return std::nullopt;
    for (size_t i = 0; i < out.size(); ++i) {
        bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash ? out[i] != '-' : std::isxdigit(static_cast<unsigned char>(out[i])) == 0) {
            return std::nullopt;
        }
    }
    return out;
}

Converted jsonText(const Cursor& cursor, int index, int storage, int validColumn) {
    if (validColumn >= 0 && sqlite3_column_int(cursor.row(), validColumn) == 0) return std::nullopt;
    return plainText(cursor, index, storage);
}

Converted dateText(const Cursor& cursor, int index, int storage) {
    if (storage != SQLITE_TEXT) return std::nullopt;
    std::string_view text = cursor.text(index);
    // A full date and time in a DATE column keeps its date, as SQLite's date() would; anything
    // else after the date ("0044-03-15 BC") makes it no date of ours.
    std::string dateTime;
    if (text.size() > 10 && !appendUtcTimestamp(text, dateTime)) return std::nullopt;
    int y = 0;
    unsigned m = 0, d = 0;
    auto digits = [&](size_t at, size_t count, auto& value) {
        auto parsed = std::from_chars(text.data() + at, text.data() + at + count, value);
        return parsed.ec == std::errc() && parsed.ptr == text.data() + at + count;
    };
    if (text.size() < 10 || text[4] != '-' || text[7] != '-' || !digits(0, 4, y) ||
        !digits(5, 2, m) || !digits(8, 2, d)) {
        return std::nullopt;
    }
    using namespace std::chrono;
    if (!year_month_day{year{y}, month{m}, day{d}}.ok()) return std::nullopt;
    return std::string(text.substr(0, 10));
}

Converted timeText(const Cursor& cursor, int index, int storage) {
    std::string out;
    if (storage != SQLITE_TEXT || !sdk::appendIsoTime(cursor.text(index), out)) {
        return std::nullopt;
    }
    return out;
}

Converted timestampText(const Cursor& cursor, int index, int storage) {
    std::string out;
    if (storage != SQLITE_TEXT || !appendUtcTimestamp(cursor.text(index), out)) {
        return std::nullopt;
    }
    return out;
}

Converted convertedText(const Cursor& cursor, int index, int storage, const ColumnPlan& column) {
    if (column.uuid) return uuidText(cursor, index, storage);
    switch (column.kind) {
        case TDG_KIND_DECIMAL:
            return decimalText(cursor, index, storage, column.scale);
        case TDG_KIND_JSON:
            return jsonText(cursor, index, storage, column.validColumn);
        case TDG_KIND_DATE:
            return dateText(cursor, index, storage);
        case TDG_KIND_TIME:
            return timeText(cursor, index, storage);
        case TDG_KIND_TIMESTAMP:
            return timestampText(cursor, index, storage);
        default:
            return plainText(cursor, index, storage);
    }
}

void addBytes(const Cursor& cursor, int index, sdk::RowBatchBuilder& rows) {
    // sqlite3_column_blob gives the bytes of any storage class, text as its UTF-8.
    const void* data = sqlite3_column_blob(cursor.row(), index);
    int size = sqlite3_column_bytes(cursor.row(), index);
    rows.addText(TDG_KIND_BYTES, std::string_view(static_cast<const char*>(data),
                                                  data != nullptr ? static_cast<size_t>(size) : 0));
}

}  // namespace

void addCell(const Cursor& cursor, int index, const ColumnPlan& column, sdk::RowBatchBuilder& rows,
             sdk::UnrepresentableValues& warnings) {
    int storage = cursor.storage(index);
    if (storage == SQLITE_NULL) {
        rows.addNull();
        return;
    }
    bool fits = true;
    if (column.kind == TDG_KIND_INT64) {
        auto value = integerValue(cursor, index, storage);
        fits = value.has_value();
        if (fits) rows.addInt64(*value);
    } else if (column.kind == TDG_KIND_BOOL) {
        auto value = boolValue(cursor, index, storage);
        fits = value.has_value();
        if (fits) rows.addBool(*value);
    } else if (column.kind == TDG_KIND_BYTES) {
        addBytes(cursor, index, rows);
    } else {
        Converted text = convertedText(cursor, index, storage, column);
        fits = text.has_value();
        if (fits) rows.addText(column.kind, *text);
    }
    if (!fits) {
        rows.addNull();
        warnings.sentAsNull(column.table, column.name,
                            std::string("holds ") + storageName(storage) + " value that is not " +
                                (column.uuid ? "a uuid" : kindExpectation(column.kind)));
    }
}

void addRow(const Cursor& cursor, const SelectPlan& plan, sdk::RowBatchBuilder& rows,
            sdk::UnrepresentableValues& warnings) {
    for (size_t i = 0; i < plan.columns.size(); ++i) {
        addCell(cursor, static_cast<int>(i), plan.columns[i], rows, warnings);
    }
    rows.endRow();
}

}  // namespace tapdiffgen::sqlite

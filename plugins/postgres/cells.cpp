#include "cells.hpp"

#include <algorithm>
#include <charconv>

#include "bytea_text.hpp"
#include "tap-diffgen/sdk/errors.hpp"
#include "tap-diffgen/sdk/time_text.hpp"
#include "tap-diffgen/sdk/values.hpp"

namespace tapdiffgen::postgres {
namespace {

// "YYYY-MM-DD" (DateStyle ISO); "infinity", "... BC" and years past 9999 cannot be written as
// such.
bool isPlainDate(std::string_view text) {
    if (text.size() != 10 || text[4] != '-' || text[7] != '-') return false;
    // Not find_first_not_of: it searches its set once per character.
    return std::all_of(text.begin(), text.end(),
                       [](char c) { return (c >= '0' && c <= '9') || c == '-'; });
}

// Whether array_to_json's text is an array of `dimensions` dimensions: an array is rectangular,
// so its leading brackets count them; an empty one has every number of them.
bool hasDimensions(std::string_view json, int dimensions) {
    if (json == "[]") return true;
    const size_t leading = json.find_first_not_of('[');
    return leading == static_cast<size_t>(dimensions);
}

}  // namespace

CellWriter::CellWriter(sdk::UnrepresentableValues& unrepresentable, std::string table,
                       const std::vector<ColumnPlan>& columns)
    : unrepresentable_(unrepresentable), table_(std::move(table)), columns_(columns) {}

void CellWriter::write(size_t index, std::optional<std::string_view> text,
                       sdk::RowBatchBuilder& rows) {
    if (!text) {
        rows.addNull();
        return;
    }
    std::string_view value = *text;
    switch (columns_[index].conversion) {
        case Conversion::Int64: {
            int64_t number = 0;
            auto parsed = std::from_chars(value.data(), value.data() + value.size(), number);
            if (parsed.ec != std::errc() || parsed.ptr != value.data() + value.size()) {
                throw sdk::DriverError(TDG_INVALID_DATA,
                                       "table '" + table_ + "' column '" + columns_[index].name +
                                           "': not an integer: " + std::string(value));
            }
            rows.addInt64(number);
            return;
        }
        case Conversion::Bool:
            rows.addBool(value == "t");
            return;
        case Conversion::Numeric:
        case Conversion::Float:
            writeNumber(index, value, rows);
            return;
        case Conversion::Date:
            if (isPlainDate(value)) {
                rows.addText(TDG_KIND_DATE, value);
            } else {
                dropValue(index,
                          "holds a date with no YYYY-MM-DD form (infinity, before year 1 or "
                          "after year 9999)",
                          rows);
            }
            return;
        case Conversion::Timestamp:
        case Conversion::TimestampTz: {
            scratch_.clear();
            bool converted = sdk::appendIsoTimestamp(value, scratch_);
            TdgValueKind kind = columns_[index].conversion == Conversion::Timestamp
                                    ? TDG_KIND_TIMESTAMP
                                    : TDG_KIND_TIMESTAMPTZ;
            if (converted) {
                rows.addText(kind, scratch_);
            } else {
                dropValue(index,
                          "holds a timestamp with no ISO 8601 form (infinity, before year 1 or "
                          "after year 9999)",
                          rows);
            }
            return;
        }
        case Conversion::Time:
            // PostgreSQL's time of day runs to 24:00:00, which the schema's format time (RFC
            // 3339: hours 00 to 23) cannot hold.
            if (value.substr(0, 2) == "24") {
                dropValue(index, "holds 24:00:00, which no RFC 3339 time has", rows);
                return;
            }
            scratch_.clear();
            // Should the form ever be unexpected, the server's own text is still a time.
            if (!sdk::appendIsoTime(value, scratch_)) scratch_.assign(value);
            rows.addText(TDG_KIND_TIME, scratch_);
            return;
        case Conversion::Json:
            rows.addText(TDG_KIND_JSON, value);
            return;
        case Conversion::ArrayJson:
            // PostgreSQL keeps any number of dimensions in any array column; the schema nests
            // the items as the column declares.
            if (columns_[index].arrayDimensions > 0 &&
                !hasDimensions(value, columns_[index].arrayDimensions)) {
                dropValue(index, "holds an array of other dimensions than its column declares",
                          rows);
                return;
            }
            rows.addText(TDG_KIND_JSON, value);
            return;
        case Conversion::Bytes: {
            std::string& out = rows.beginText(TDG_KIND_BYTES);
            bool decoded = appendUnhexed(value, out);
            rows.endText();
            if (!decoded) {
                throw sdk::DriverError(TDG_INVALID_DATA, "table '" + table_ + "' column '" +
                                                             columns_[index].name +
                                                             "': bytea not in hex form");
            }
            return;
        }
        case Conversion::Text:
            rows.addText(TDG_KIND_TEXT, value);
            return;
    }
}

void CellWriter::writeNumber(size_t index, std::string_view text, sdk::RowBatchBuilder& rows) {
    // PostgreSQL prints numeric digits exactly and floats in shortest round-trip form; what is
    // not a JSON number is NaN or ±Infinity.
    if (sdk::isJsonNumber(text)) {
        rows.addText(TDG_KIND_DECIMAL, text);
    } else {
        dropValue(index, "holds a number that JSON cannot carry (NaN or infinity)", rows);
    }
}

void CellWriter::dropValue(size_t index, const char* problem, sdk::RowBatchBuilder& rows) {
    rows.addNull();
    unrepresentable_.sentAsNull(table_, columns_[index].name, problem);
}

}  // namespace tapdiffgen::postgres

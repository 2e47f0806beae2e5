#include "cells.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "tap-diffgen/sdk/errors.hpp"
#include "tap-diffgen/sdk/time_text.hpp"
#include "tap-diffgen/sdk/values.hpp"

namespace tapdiffgen::mysql {
namespace {

// MySQL keeps zero dates (0000-00-00) and dates with a zero month or day; none is a real day.
bool isZeroDate(const MYSQL_TIME& value) { return value.month == 0 || value.day == 0; }

const char* const kZeroDate = "holds a zero date (a zero year, month or day)";
const char* const kNotANumber = "holds a number that JSON cannot carry (NaN or infinity)";

std::string decimalDigits(uint64_t value) {
    char buffer[24];
    auto end = std::to_chars(buffer, buffer + sizeof(buffer), value).ptr;
    return std::string(buffer, end);
}

// Writes value in decimal at out, zero-padded to at least `width` digits (printf's %0*lu), and
// returns the end. Dates and times are formatted with it rather than snprintf, which took a
// third of the tap's instructions on a MariaDB replay (one date or time column a row, and
// ts_created of every event).
char* putPadded(char* out, unsigned long value, int width) {
    char digits[24];
    char* end = std::to_chars(digits, digits + sizeof(digits), value).ptr;
    for (auto n = end - digits; n < width; ++n) *out++ = '0';
    return std::copy(digits, end, out);
}

// "%04u-%02u-%02u"
char* putDate(char* out, const MYSQL_TIME& value) {
    out = putPadded(out, value.year, 4);
    *out++ = '-';
    out = putPadded(out, value.month, 2);
    *out++ = '-';
    return putPadded(out, value.day, 2);
}

// "%02u:%02u:%02u.%06lu"
char* putClock(char* out, const MYSQL_TIME& value) {
    out = putPadded(out, value.hour, 2);
    *out++ = ':';
    out = putPadded(out, value.minute, 2);
    *out++ = ':';
    out = putPadded(out, value.second, 2);
    *out++ = '.';
    return putPadded(out, value.second_part, 6);
}

// Room for every field at its widest (20 digits) and the separators.
constexpr size_t kDateTimeChars = 7 * 20 + 8;

void addInteger(uint64_t magnitude, bool negative, TdgValueKind kind, sdk::RowBatchBuilder& out) {
    if (kind == TDG_KIND_BOOL) {
        out.addBool(magnitude != 0);
    } else if (kind == TDG_KIND_DECIMAL) {
        out.addText(TDG_KIND_DECIMAL, decimalDigits(magnitude));
    } else {
        out.addInt64(negative ? -static_cast<int64_t>(magnitude) : static_cast<int64_t>(magnitude));
    }
}

}  // namespace

std::string formatFloat(float value) {
    if (!std::isfinite(value)) return {};
    char buffer[32];
    auto end = std::to_chars(buffer, buffer + sizeof(buffer), value).ptr;
    return std::string(buffer, end);
}

void appendTime(const MYSQL_TIME& value, std::string& out) {
    char buffer[kDateTimeChars];
    char* end = buffer;
    if (value.neg) *end++ = '-';
    end = putClock(end, value);
    sdk::appendIsoTime(std::string_view(buffer, static_cast<size_t>(end - buffer)), out);
}

void CellWriter::prepare(const std::vector<FieldInfo>& fields, const JsonTest& isDeclaredJson,
                         std::string table) {
    table_ = std::move(table);
    codecs_.clear();
    names_.clear();
    for (const FieldInfo& field : fields) {
        bool json = isDeclaredJson && isDeclaredJson(field.name);
        codecs_.push_back(codecForField(field, json));
        names_.push_back(field.name);
    }
}

void CellWriter::sendAsNull(size_t column, const char* problem, sdk::RowBatchBuilder& out) {
    out.addNull();
    unrepresentable_.sentAsNull(table_, names_[column], problem);
}

void CellWriter::writeRow(ResultRow& row, sdk::RowBatchBuilder& out) {
    for (size_t i = 0; i < codecs_.size(); ++i) writeCell(row, i, out);
    out.endRow();
}

void CellWriter::writeCell(ResultRow& row, size_t column, sdk::RowBatchBuilder& out) {
    if (row.isNull(column)) {
        out.addNull();
        return;
    }
    const FieldCodec& codec = codecs_[column];
    switch (codec.decoder) {
        case Decoder::SignedInt:
        case Decoder::UnsignedInt:
            writeInteger(row, column, out);
            return;
        case Decoder::Bits:
            writeBits(row, column, out);
            return;
        case Decoder::Float: {
            std::string text = formatFloat(row.real32(column));
            if (text.empty()) {
                sendAsNull(column, kNotANumber, out);
            } else {
                out.addText(TDG_KIND_DECIMAL, text);
            }
            return;
        }
        case Decoder::Double: {
            auto text = sdk::formatDouble(row.real64(column));
            if (text) {
                out.addText(TDG_KIND_DECIMAL, *text);
            } else {
                sendAsNull(column, kNotANumber, out);
            }
            return;
        }
        case Decoder::Text:
            if (codec.kind == TDG_KIND_DECIMAL) {
                writeDecimalText(row, column, out);
            } else {
                row.appendBytes(column, out.beginText(codec.kind));
                out.endText();
            }
            return;
        case Decoder::Date:
            writeDate(column, row.time(column), out);
            return;
        case Decoder::Time:
            scratch_.clear();
            appendTime(row.time(column), scratch_);
            out.addText(TDG_KIND_TIME, scratch_);
            return;
        case Decoder::DateTime:
            writeDateTime(column, row.time(column), codec.kind, out);
            return;
    }
}

void CellWriter::writeInteger(ResultRow& row, size_t column, sdk::RowBatchBuilder& out) {
    const FieldCodec& codec = codecs_[column];
    if (codec.decoder == Decoder::UnsignedInt) {
        addInteger(row.uint64(column), false, codec.kind, out);
        return;
    }
    int64_t value = row.int64(column);
    if (codec.kind == TDG_KIND_BOOL) {
        out.addBool(value != 0);
    } else {
        out.addInt64(value);
    }
}

// BIT(n) arrives as ceil(n/8) big-endian bytes.
void CellWriter::writeBits(ResultRow& row, size_t column, sdk::RowBatchBuilder& out) {
    scratch_.clear();
    row.appendBytes(column, scratch_);
    uint64_t value = 0;
    for (unsigned char byte : scratch_) value = (value << 8) | byte;
    addInteger(value, false, codecs_[column].kind, out);
}

void CellWriter::writeDecimalText(ResultRow& row, size_t column, sdk::RowBatchBuilder& out) {
    scratch_.clear();
    row.appendBytes(column, scratch_);
    if (!sdk::isJsonNumber(scratch_)) {
        throw sdk::DriverError(TDG_INVALID_DATA,
                               "column " + std::to_string(column + 1) + ": the server sent '" +
                                   scratch_.substr(0, 64) + "', which is not a number");
    }
    out.addText(TDG_KIND_DECIMAL, scratch_);
}

void CellWriter::writeDate(size_t column, const MYSQL_TIME& value, sdk::RowBatchBuilder& out) {
    if (isZeroDate(value)) {
        sendAsNull(column, kZeroDate, out);
        return;
    }
    char buffer[kDateTimeChars];
    char* end = putDate(buffer, value);
    out.addText(TDG_KIND_DATE, std::string_view(buffer, static_cast<size_t>(end - buffer)));
}

void CellWriter::writeDateTime(size_t column, const MYSQL_TIME& value, TdgValueKind kind,
                               sdk::RowBatchBuilder& out) {
    scratch_.clear();
    if (!appendTimestamp(value, scratch_)) {
        sendAsNull(column, kZeroDate, out);
        return;
    }
    // The session runs in UTC, so a TIMESTAMP column's value is the instant in UTC.
    if (kind == TDG_KIND_TIMESTAMPTZ) scratch_.append("+00:00");
    out.addText(kind, scratch_);
}

bool appendTimestamp(const MYSQL_TIME& value, std::string& out) {
    if (isZeroDate(value)) return false;
    char buffer[kDateTimeChars];
    char* end = putDate(buffer, value);
    *end++ = ' ';
    end = putClock(end, value);
    return sdk::appendIsoTimestamp(std::string_view(buffer, static_cast<size_t>(end - buffer)),
                                   out);
}

}  // namespace tapdiffgen::mysql

#include "cells.hpp"

#include <charconv>

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

// MYSQL_TIME's fields as the SDK's (the session runs in UTC: no offset).
sdk::DateTimeFields fieldsOf(const MYSQL_TIME& value) {
    sdk::DateTimeFields fields;
    fields.year = static_cast<int>(value.year);
    fields.month = value.month;
    fields.day = value.day;
    fields.hour = value.hour;
    fields.minute = value.minute;
    fields.second = value.second;
    fields.microseconds = static_cast<uint32_t>(value.second_part);
    fields.negative = value.neg != 0;
    return fields;
}

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

void appendTime(const MYSQL_TIME& value, std::string& out) {
    sdk::appendIsoFromFields(TDG_KIND_TIME, fieldsOf(value), out);
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

void CellWriter::requireKinds(const std::vector<TdgValueKind>& kinds) const {
    for (size_t i = 0; i < kinds.size() && i < codecs_.size(); ++i) {
        if (codecs_[i].kind != kinds[i]) {
            throw sdk::tableChanged("table '" + table_ + "' changed under the read: column '" +
                                    names_[i] + "' holds another type now");
        }
    }
}

void CellWriter::sendAsNull(size_t column, const char* problem, sdk::RowBatchBuilder& out) {
    out.addNull();
    unrepresentable_.sentAsNull(table_, names_[column], problem);
}

void CellWriter::writeNumber(size_t column, const std::optional<std::string>& text,
                             sdk::RowBatchBuilder& out) {
    if (text) {
        out.addText(TDG_KIND_DECIMAL, *text);
    } else {
        sendAsNull(column, kNotANumber, out);
    }
}

template <typename Row>
void CellWriter::writeRow(Row& row, sdk::RowBatchBuilder& out) {
    for (size_t i = 0; i < codecs_.size(); ++i) writeCell(row, i, out);
    out.endRow();
}

template <typename Row>
void CellWriter::writeCell(Row& row, size_t column, sdk::RowBatchBuilder& out) {
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
        case Decoder::Float:
            writeNumber(column, sdk::formatFloat(row.real32(column)), out);
            return;
        case Decoder::Double:
            writeNumber(column, sdk::formatDouble(row.real64(column)), out);
            return;
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

template <typename Row>
void CellWriter::writeInteger(Row& row, size_t column, sdk::RowBatchBuilder& out) {
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
template <typename Row>
void CellWriter::writeBits(Row& row, size_t column, sdk::RowBatchBuilder& out) {
    scratch_.clear();
    row.appendBytes(column, scratch_);
    uint64_t value = 0;
    for (unsigned char byte : scratch_) value = (value << 8) | byte;
    addInteger(value, false, codecs_[column].kind, out);
}

template <typename Row>
void CellWriter::writeDecimalText(Row& row, size_t column, sdk::RowBatchBuilder& out) {
    scratch_.clear();
    row.appendBytes(column, scratch_);
    out.addText(TDG_KIND_DECIMAL,
                sdk::jsonNumberFromDecimal(scratch_, "column " + std::to_string(column + 1)));
}

void CellWriter::writeDate(size_t column, const MYSQL_TIME& value, sdk::RowBatchBuilder& out) {
    if (isZeroDate(value)) {
        sendAsNull(column, kZeroDate, out);
        return;
    }
    scratch_.clear();
    if (!sdk::appendIsoFromFields(TDG_KIND_DATE, fieldsOf(value), scratch_)) {
        sendAsNull(column, kZeroDate, out);
        return;
    }
    out.addText(TDG_KIND_DATE, scratch_);
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

template void CellWriter::writeRow(ResultRow& row, sdk::RowBatchBuilder& out);
template void CellWriter::writeRow(TextRow& row, sdk::RowBatchBuilder& out);

bool appendTimestamp(const MYSQL_TIME& value, std::string& out) {
    if (isZeroDate(value)) return false;
    return sdk::appendIsoFromFields(TDG_KIND_TIMESTAMP, fieldsOf(value), out);
}

}  // namespace tapdiffgen::mysql

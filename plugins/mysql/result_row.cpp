#include "result_row.hpp"

#include <algorithm>
#include <charconv>

#include "errors.hpp"

namespace tapdiffgen::mysql {
namespace {

constexpr size_t kSmallestBuffer = 16;
constexpr size_t kLargestInitialBuffer = 1024;

size_t initialBufferSize(const FieldInfo& field) {
    // field.length is the declared maximum (4 GiB for LONGTEXT), so it only caps small columns.
    size_t declared = static_cast<size_t>(field.length) + 1;
    return std::clamp(declared, kSmallestBuffer, kLargestInitialBuffer);
}

size_t nextPowerOfTwo(size_t value) {
    size_t size = kSmallestBuffer;
    while (size < value) size *= 2;
    return size;
}

}  // namespace

ResultRow::Storage ResultRow::storageFor(const FieldInfo& field, enum_field_types& bufferType) {
    if (field.isInteger()) {
        bufferType = MYSQL_TYPE_LONGLONG;
        return Storage::Integer;
    }
    switch (field.type) {
        case MYSQL_TYPE_FLOAT:
            bufferType = MYSQL_TYPE_FLOAT;
            return Storage::Real32;
        case MYSQL_TYPE_DOUBLE:
            bufferType = MYSQL_TYPE_DOUBLE;
            return Storage::Real64;
        case MYSQL_TYPE_DATE:
        case MYSQL_TYPE_TIME:
            bufferType = field.type;
            return Storage::Time;
        case MYSQL_TYPE_DATETIME:
        case MYSQL_TYPE_TIMESTAMP:
            bufferType = MYSQL_TYPE_DATETIME;
            return Storage::Time;
        default:
            // MYSQL_TYPE_STRING: the client copies the bytes as sent and honours the offset
            // of mysql_stmt_fetch_column (its BLOB path ignores the offset).
            bufferType = MYSQL_TYPE_STRING;
            return Storage::Bytes;
    }
}

void ResultRow::bind(MYSQL_STMT* stmt, const std::vector<FieldInfo>& fields) {
    stmt_ = stmt;
    columns_.resize(fields.size());
    binds_.assign(fields.size(), MYSQL_BIND{});
    for (size_t i = 0; i < fields.size(); ++i) {
        Column& column = columns_[i];
        MYSQL_BIND& bind = binds_[i];
        column.storage = storageFor(fields[i], bind.buffer_type);
        bind.is_unsigned = fields[i].isUnsigned();
        if (column.storage == Storage::Bytes && column.bytes.empty()) {
            column.bytes.resize(initialBufferSize(fields[i]));
        }
        column.wanted = column.bytes.size();
        attach(i);
    }
    rebind_ = true;
}

void ResultRow::attach(size_t index) {
    Column& column = columns_[index];
    MYSQL_BIND& bind = binds_[index];
    bind.length = &column.length;
    bind.is_null = &column.isNull;
    bind.error = &column.error;
    switch (column.storage) {
        case Storage::Integer:
            bind.buffer = &column.integer;
            break;
        case Storage::Real32:
            bind.buffer = &column.real32;
            break;
        case Storage::Real64:
            bind.buffer = &column.real64;
            break;
        case Storage::Time:
            bind.buffer = &column.time;
            bind.buffer_length = sizeof(MYSQL_TIME);
            break;
        case Storage::Bytes:
            bind.buffer = column.bytes.data();
            bind.buffer_length = static_cast<unsigned long>(column.bytes.size());
            break;
    }
}

void ResultRow::prepareFetch() {
    for (size_t i = 0; i < columns_.size(); ++i) {
        Column& column = columns_[i];
        if (column.storage == Storage::Bytes && column.wanted > column.bytes.size()) {
            column.bytes.resize(column.wanted);
            attach(i);
            rebind_ = true;
        }
    }
    if (rebind_ && mysql_stmt_bind_result(stmt_, binds_.data()) != 0) {
        throw toDriverError(
            {mysql_stmt_errno(stmt_), mysql_stmt_sqlstate(stmt_), mysql_stmt_error(stmt_)},
            "binding result columns", {});
    }
    rebind_ = false;
}

const ResultRow::Column& ResultRow::typed(size_t index, Storage storage) const {
    const Column& column = columns_[index];
    if (column.storage != storage) {
        throw sdk::DriverError(TDG_INTERNAL, "result column " + std::to_string(index + 1) +
                                                 " read with the wrong type");
    }
    return column;
}

int64_t ResultRow::int64(size_t index) const {
    return static_cast<int64_t>(typed(index, Storage::Integer).integer);
}

uint64_t ResultRow::uint64(size_t index) const {
    return static_cast<uint64_t>(typed(index, Storage::Integer).integer);
}

float ResultRow::real32(size_t index) const { return typed(index, Storage::Real32).real32; }

double ResultRow::real64(size_t index) const { return typed(index, Storage::Real64).real64; }

const MYSQL_TIME& ResultRow::time(size_t index) const { return typed(index, Storage::Time).time; }

void ResultRow::appendBytes(size_t index, std::string& out) {
    Column& column = columns_[index];
    typed(index, Storage::Bytes);
    size_t total = column.length;
    size_t buffered = std::min(total, column.bytes.size());
    out.append(column.bytes.data(), buffered);
    if (total <= buffered) return;

    if (total < kMaxBufferedBytes)
        column.wanted = std::max(column.wanted, nextPowerOfTwo(total + 1));
    size_t start = out.size();
    out.resize(start + (total - buffered));
    MYSQL_BIND rest{};
    unsigned long restLength = 0;
    my_bool restNull = 0;
    my_bool restError = 0;
    rest.buffer_type = MYSQL_TYPE_STRING;
    rest.buffer = out.data() + start;
    rest.buffer_length = static_cast<unsigned long>(total - buffered);
    rest.length = &restLength;
    rest.is_null = &restNull;
    rest.error = &restError;
    if (mysql_stmt_fetch_column(stmt_, &rest, static_cast<unsigned>(index),
                                static_cast<unsigned long>(buffered)) != 0) {
        out.resize(start);
        throw toDriverError(
            {mysql_stmt_errno(stmt_), mysql_stmt_sqlstate(stmt_), mysql_stmt_error(stmt_)},
            "reading a long value", {});
    }
}

int64_t ResultRow::asInt64(size_t index) {
    if (columns_[index].storage == Storage::Integer) return int64(index);
    std::string text = bytes(index);
    int64_t value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size()) {
        throw sdk::DriverError(TDG_INVALID_DATA, "result column " + std::to_string(index + 1) +
                                                     " holds '" + text.substr(0, 64) +
                                                     "', not an integer");
    }
    return value;
}

std::string ResultRow::bytes(size_t index) {
    std::string value;
    appendBytes(index, value);
    return value;
}

}  // namespace tapdiffgen::mysql

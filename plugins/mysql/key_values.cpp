#include "key_values.hpp"

#include <charconv>

#include "number_text.hpp"
#include "tap-diffgen/sdk/errors.hpp"

namespace tapdiffgen::mysql {
namespace {

[[noreturn]] void notAnInteger(std::string_view key, std::string_view columnName) {
    constexpr size_t kShown = 64;
    std::string shown(key.substr(0, kShown));
    throw sdk::DriverError(TDG_INVALID_DATA, "key '" + shown +
                                                 "' is not a valid value of "
                                                 "integer column '" +
                                                 std::string(columnName) + "'");
}

}  // namespace

void bindKey(Params& params, std::string_view key, const FieldInfo& keyField,
             std::string_view columnName) {
    if (!keyField.isInteger()) {
        params.addText(key);
        return;
    }
    if (keyField.isUnsigned()) {
        uint64_t value = 0;
        if (!parseWhole(key, value)) notAnInteger(key, columnName);
        params.addUInt64(value);
    } else {
        int64_t value = 0;
        if (!parseWhole(key, value)) notAnInteger(key, columnName);
        params.addInt64(value);
    }
}

void appendKeyLiteral(std::string& sql, MYSQL* connection, std::string_view key,
                      const FieldInfo& keyField, std::string_view columnName) {
    char digits[24];
    if (keyField.isInteger()) {
        std::to_chars_result printed{};
        if (keyField.isUnsigned()) {
            uint64_t value = 0;
            if (!parseWhole(key, value)) notAnInteger(key, columnName);
            printed = std::to_chars(digits, digits + sizeof(digits), value);
        } else {
            int64_t value = 0;
            if (!parseWhole(key, value)) notAnInteger(key, columnName);
            printed = std::to_chars(digits, digits + sizeof(digits), value);
        }
        sql.append(digits, printed.ptr);
        return;
    }
    appendTextLiteral(sql, connection, key, "a key of column '" + std::string(columnName) + "'");
}

void appendTextLiteral(std::string& sql, MYSQL* connection, std::string_view text,
                       std::string_view what) {
    // mysql_real_escape_string writes at most two bytes per byte, and a terminator.
    size_t start = sql.size();
    sql.resize(start + 1 + 2 * text.size() + 1);
    sql[start] = '\'';
    unsigned long written = mysql_real_escape_string(
        connection, sql.data() + start + 1, text.data(), static_cast<unsigned long>(text.size()));
    if (written == static_cast<unsigned long>(-1)) {
        throw sdk::DriverError(TDG_INVALID_DATA, "cannot escape " + std::string(what));
    }
    sql.resize(start + 1 + written);
    sql.push_back('\'');
}

void LastKey::capture(ResultRow& row, size_t column, const FieldInfo& field) {
    isNull_ = row.isNull(column);
    if (isNull_) return;
    if (field.isInteger()) {
        kind_ = field.isUnsigned() ? Kind::Unsigned : Kind::Signed;
        signed_ = row.int64(column);
        unsigned_ = row.uint64(column);
        return;
    }
    switch (field.type) {
        case MYSQL_TYPE_FLOAT:
            kind_ = Kind::Real;
            real_ = row.real32(column);
            return;
        case MYSQL_TYPE_DOUBLE:
            kind_ = Kind::Real;
            real_ = row.real64(column);
            return;
        case MYSQL_TYPE_DATE:
        case MYSQL_TYPE_TIME:
        case MYSQL_TYPE_DATETIME:
        case MYSQL_TYPE_TIMESTAMP:
            kind_ = Kind::Time;
            time_ = row.time(column);
            timeType_ = field.type == MYSQL_TYPE_TIMESTAMP ? MYSQL_TYPE_DATETIME : field.type;
            return;
        default:
            kind_ = Kind::Text;
            text_.clear();
            row.appendBytes(column, text_);
            return;
    }
}

void LastKey::bind(Params& params) const {
    switch (kind_) {
        case Kind::Signed:
            params.addInt64(signed_);
            return;
        case Kind::Unsigned:
            params.addUInt64(unsigned_);
            return;
        case Kind::Real:
            params.addDouble(real_);
            return;
        case Kind::Time:
            params.addTime(time_, timeType_);
            return;
        case Kind::Text:
            params.addText(text_);
            return;
    }
}

}  // namespace tapdiffgen::mysql

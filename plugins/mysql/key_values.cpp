#include "key_values.hpp"

#include <charconv>
#include <cstdlib>

#include "number_text.hpp"
#include "tap-diffgen/sdk/errors.hpp"

namespace tapdiffgen::mysql {
namespace {

// "YYYY-MM-DD[THH:MM:SS[.ffffff]][+00:00]" or "[-]H...H:MM:SS[.ffffff]", the ABI's texts of
// MySQL's dates and times (the session is in UTC, so a TIMESTAMP's offset is always +00:00).
class TimeText {
public:
    explicit TimeText(std::string_view text) : text_(text) {}

    bool readDate(MYSQL_TIME& time) {
        return number(time.year, 4) && take('-') && number(time.month, 2) && take('-') &&
               number(time.day, 2);
    }
    bool readClock(MYSQL_TIME& time, bool hoursMayGrow) {
        time.neg = take('-');
        size_t digits = 2;
        while (hoursMayGrow && at_ + digits < text_.size() && isDigit(text_[at_ + digits])) {
            ++digits;
        }
        if (!number(time.hour, digits) || !take(':') || !number(time.minute, 2) || !take(':') ||
            !number(time.second, 2)) {
            return false;
        }
        if (!take('.')) return true;
        const size_t start = at_;
        unsigned long fraction = 0;
        while (at_ < text_.size() && isDigit(text_[at_]) && at_ - start < 6) {
            fraction = fraction * 10 + static_cast<unsigned long>(text_[at_++] - '0');
        }
        for (size_t i = at_ - start; i < 6; ++i) fraction *= 10;
        time.second_part = fraction;
        return at_ > start;
    }
    bool take(char c) {
        if (at_ >= text_.size() || text_[at_] != c) return false;
        ++at_;
        return true;
    }
    bool atEnd() const { return at_ == text_.size(); }
    bool rest(std::string_view expected) {
        if (text_.substr(at_) != expected) return false;
        at_ = text_.size();
        return true;
    }

private:
    std::string_view text_;
    size_t at_ = 0;

    static bool isDigit(char c) { return c >= '0' && c <= '9'; }
    bool number(unsigned int& out, size_t digits) {
        if (at_ + digits > text_.size()) return false;
        out = 0;
        for (size_t i = 0; i < digits; ++i) {
            if (!isDigit(text_[at_ + i])) return false;
            out = out * 10 + static_cast<unsigned>(text_[at_ + i] - '0');
        }
        at_ += digits;
        return true;
    }
};

}  // namespace

bool parseKeyTime(std::string_view text, enum_field_types type, MYSQL_TIME& time) {
    time = MYSQL_TIME{};
    TimeText reader(text);
    switch (type) {
        case MYSQL_TYPE_DATE:
            time.time_type = MYSQL_TIMESTAMP_DATE;
            return reader.readDate(time) && reader.atEnd();
        case MYSQL_TYPE_TIME:
            time.time_type = MYSQL_TIMESTAMP_TIME;
            if (!reader.readClock(time, true) || !reader.atEnd()) return false;
            // The binary protocol sends a TIME's hours in one byte beside its days: 838 hours
            // travel as 34 days and 22 hours, or arrive as 70.
            time.day = time.hour / 24;
            time.hour %= 24;
            return true;
        default:
            time.time_type = MYSQL_TIMESTAMP_DATETIME;
            return reader.readDate(time) && reader.take('T') && reader.readClock(time, false) &&
                   (reader.atEnd() || reader.rest("+00:00"));
    }
}

namespace {

[[noreturn]] void notAKeyOf(std::string_view columnName) {
    throw sdk::DriverError(TDG_INVALID_ARGUMENT, "after_key: not a value of key column '" +
                                                     std::string(columnName) + "'");
}

}  // namespace

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

LastKey LastKey::fromCell(const TdgCell& cell, const FieldInfo& field,
                          std::string_view columnName) {
    LastKey key;
    key.isNull_ = cell.kind == TDG_KIND_NULL;
    if (key.isNull_) notAKeyOf(columnName);
    const std::string_view text(cell.data, static_cast<size_t>(cell.size));
    const bool integerCell = cell.kind == TDG_KIND_INT64 || cell.kind == TDG_KIND_BOOL;
    if (field.isInteger() || integerCell) {
        key.kind_ = field.isUnsigned() ? Kind::Unsigned : Kind::Signed;
        if (integerCell) {
            key.signed_ = cell.i64;
            key.unsigned_ = static_cast<uint64_t>(cell.i64);
        } else if (!(field.isUnsigned() ? parseWhole(text, key.unsigned_)
                                        : parseWhole(text, key.signed_))) {
            notAKeyOf(columnName);
        }
        return key;
    }
    switch (field.type) {
        case MYSQL_TYPE_FLOAT:
        case MYSQL_TYPE_DOUBLE: {
            // The cell holds the shortest text that reads back as the same FLOAT or DOUBLE.
            const std::string digits(text);
            char* end = nullptr;
            key.real_ = field.type == MYSQL_TYPE_FLOAT ? std::strtof(digits.c_str(), &end)
                                                       : std::strtod(digits.c_str(), &end);
            if (end != digits.c_str() + digits.size()) notAKeyOf(columnName);
            key.kind_ = Kind::Real;
            return key;
        }
        case MYSQL_TYPE_DATE:
        case MYSQL_TYPE_TIME:
        case MYSQL_TYPE_DATETIME:
        case MYSQL_TYPE_TIMESTAMP:
            if (!parseKeyTime(text, field.type, key.time_)) notAKeyOf(columnName);
            key.kind_ = Kind::Time;
            key.timeType_ = field.type == MYSQL_TYPE_TIMESTAMP ? MYSQL_TYPE_DATETIME : field.type;
            return key;
        default:
            key.kind_ = Kind::Text;
            key.text_.assign(text);
            return key;
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

#include "text_row.hpp"

#include "number_text.hpp"
#include "tap-diffgen/sdk/errors.hpp"

namespace tapdiffgen::mysql {
namespace {

// Reads exactly `digits` decimal digits at `at`, advancing it.
bool readDigits(std::string_view text, size_t& at, size_t digits, unsigned& value) {
    if (at + digits > text.size()) return false;
    value = 0;
    for (size_t i = 0; i < digits; ++i) {
        char c = text[at + i];
        if (c < '0' || c > '9') return false;
        value = value * 10 + static_cast<unsigned>(c - '0');
    }
    at += digits;
    return true;
}

bool expect(std::string_view text, size_t& at, char c) {
    if (at >= text.size() || text[at] != c) return false;
    ++at;
    return true;
}

// ".ffffff" with one to six digits, as microseconds; nothing at all is zero.
bool readFraction(std::string_view text, size_t& at, unsigned long& microseconds) {
    microseconds = 0;
    if (at == text.size()) return true;
    if (!expect(text, at, '.')) return false;
    size_t digits = 0;
    unsigned long scale = 100000;
    for (; at < text.size(); ++at, ++digits) {
        char c = text[at];
        if (c < '0' || c > '9' || digits == 6) return false;
        microseconds += static_cast<unsigned long>(c - '0') * scale;
        scale /= 10;
    }
    return digits > 0;
}

bool readDate(std::string_view text, size_t& at, MYSQL_TIME& out) {
    return readDigits(text, at, 4, out.year) && expect(text, at, '-') &&
           readDigits(text, at, 2, out.month) && expect(text, at, '-') &&
           readDigits(text, at, 2, out.day);
}

bool readClock(std::string_view text, size_t& at, MYSQL_TIME& out) {
    return expect(text, at, ':') && readDigits(text, at, 2, out.minute) && expect(text, at, ':') &&
           readDigits(text, at, 2, out.second) && readFraction(text, at, out.second_part);
}

// TIME: an optional sign, then two or three hour digits (up to 838).
bool readTime(std::string_view text, MYSQL_TIME& out) {
    size_t at = 0;
    out.neg = expect(text, at, '-');
    size_t colon = text.find(':', at);
    if (colon == std::string_view::npos || colon - at < 2 || colon - at > 3) return false;
    if (!readDigits(text, at, colon - at, out.hour)) return false;
    return readClock(text, at, out) && at == text.size();
}

}  // namespace

bool parseTemporalText(std::string_view text, enum_field_types type, MYSQL_TIME& out) {
    out = MYSQL_TIME{};
    size_t at = 0;
    switch (type) {
        case MYSQL_TYPE_DATE:
            out.time_type = MYSQL_TIMESTAMP_DATE;
            return readDate(text, at, out) && at == text.size();
        case MYSQL_TYPE_TIME:
            out.time_type = MYSQL_TIMESTAMP_TIME;
            return readTime(text, out);
        case MYSQL_TYPE_DATETIME:
        case MYSQL_TYPE_TIMESTAMP:
            out.time_type = MYSQL_TIMESTAMP_DATETIME;
            return readDate(text, at, out) && expect(text, at, ' ') &&
                   readDigits(text, at, 2, out.hour) && readClock(text, at, out) &&
                   at == text.size();
        default:
            return false;
    }
}

void TextRow::unreadable(size_t column, const char* what) const {
    constexpr size_t kShown = 64;
    throw sdk::DriverError(TDG_INVALID_DATA,
                           "result column '" + fields_[column].name + "' holds '" +
                               std::string(text(column).substr(0, kShown)) + "', not " + what);
}

int64_t TextRow::int64(size_t column) const {
    int64_t value = 0;
    if (!parseWhole(text(column), value)) unreadable(column, "an integer");
    return value;
}

uint64_t TextRow::uint64(size_t column) const {
    uint64_t value = 0;
    if (!parseWhole(text(column), value)) unreadable(column, "an unsigned integer");
    return value;
}

float TextRow::real32(size_t column) const {
    // The text is the double the float widens to (see the header), so narrowing is exact.
    return static_cast<float>(real64(column));
}

double TextRow::real64(size_t column) const {
    double value = 0;
    if (!parseWhole(text(column), value)) unreadable(column, "a number");
    return value;
}

const MYSQL_TIME& TextRow::time(size_t column) {
    if (!parseTemporalText(text(column), fields_[column].type, time_)) {
        unreadable(column, "a date or time");
    }
    return time_;
}

}  // namespace tapdiffgen::mysql

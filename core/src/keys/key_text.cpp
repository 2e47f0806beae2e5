#include "keys/key_text.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>

#include "singer/json_text.hpp"

namespace tapdiffgen::core {
namespace {

// Fractions of a second are kept to the microsecond, always six digits.
constexpr int kFractionDigits = 6;

std::string lowered(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

bool isDigit(char c) { return c >= '0' && c <= '9'; }

std::string_view trimmedSpaces(std::string_view text) {
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
    return text;
}

std::optional<std::string> fault(KeyTextFault* out, KeyTextFault why) {
    if (out != nullptr) *out = why;
    return std::nullopt;
}

std::optional<std::string> integerText(std::string_view text, KeyTextFault* why) {
    text = trimmedSpaces(text);
    int64_t value = 0;
    auto result = std::from_chars(text.data(), text.data() + text.size(), value);
    if (result.ptr != text.data() + text.size() || text.empty()) {
        return fault(why, KeyTextFault::Unreadable);
    }
    if (result.ec == std::errc::result_out_of_range) return fault(why, KeyTextFault::CannotHold);
    if (result.ec != std::errc()) return fault(why, KeyTextFault::Unreadable);
    std::string out;
    appendInt64(out, value);
    return out;
}

// [-]digits[.digits], as numeric::text, CAST(d AS CHAR) and JSON numbers without exponent
// write them. With a declared scale the fraction gets exactly that many digits (a digit past
// it that is not zero is a value the column cannot hold); without one, none to spare.
std::optional<std::string> decimalText(std::string_view text, int scale, KeyTextFault* why) {
    text = trimmedSpaces(text);
    bool negative = false;
    if (!text.empty() && (text.front() == '-' || text.front() == '+')) {
        negative = text.front() == '-';
        text.remove_prefix(1);
    }
    const size_t point = text.find('.');
    std::string_view whole = text.substr(0, point);
    std::string_view fraction = point == std::string_view::npos ? "" : text.substr(point + 1);
    auto allDigits = [](std::string_view part) {
        return std::all_of(part.begin(), part.end(), isDigit);
    };
    if ((whole.empty() && fraction.empty()) || !allDigits(whole) || !allDigits(fraction) ||
        (point != std::string_view::npos && whole.empty())) {
        return fault(why, KeyTextFault::Unreadable);
    }
    while (whole.size() > 1 && whole.front() == '0') whole.remove_prefix(1);
    if (whole.empty()) whole = "0";
    std::string digits(fraction);
    if (scale >= 0) {
        const size_t wanted = static_cast<size_t>(scale);
        if (digits.size() > wanted) {
            if (digits.find_first_not_of('0', wanted) != std::string::npos) {
                return fault(why, KeyTextFault::CannotHold);
            }
            digits.resize(wanted);
        }
        digits.append(wanted - digits.size(), '0');
    } else {
        while (!digits.empty() && digits.back() == '0') digits.pop_back();
    }
    const bool zero = whole == "0" && digits.find_first_not_of('0') == std::string::npos;
    std::string out = negative && !zero ? "-" : "";
    out += whole;
    if (!digits.empty()) out += "." + digits;
    return out;
}

std::optional<std::string> boolText(std::string_view text, KeyTextFault* why) {
    const std::string word = lowered(trimmedSpaces(text));
    if (word == "true" || word == "t" || word == "1" || word == "yes" || word == "on")
        return "true";
    if (word == "false" || word == "f" || word == "0" || word == "no" || word == "off") {
        return "false";
    }
    return fault(why, KeyTextFault::Unreadable);
}

int hexDigit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// Lowercase hex; PostgreSQL's `\x0102` (to_jsonb of a bytea) is read too.
std::optional<std::string> bytesText(std::string_view text, KeyTextFault* why) {
    if (text.size() >= 2 && text[0] == '\\' && (text[1] == 'x' || text[1] == 'X')) {
        text.remove_prefix(2);
    }
    if (text.size() % 2 != 0 ||
        !std::all_of(text.begin(), text.end(), [](char c) { return hexDigit(c) >= 0; })) {
        return fault(why, KeyTextFault::Unreadable);
    }
    return lowered(text);
}

// Reads the date and time texts of every dialect's journal: fixed-width fields, a `T` or a
// space between date and time, a fraction of any length, an offset (`Z`, `+HH`, `+HH:MM`,
// `+HHMM`).
class ClockReader {
public:
    explicit ClockReader(std::string_view text) : text_(text) {}

    bool number(int& out, size_t digits) {
        if (at_ + digits > text_.size()) return false;
        out = 0;
        for (size_t i = 0; i < digits; ++i) {
            if (!isDigit(text_[at_ + i])) return false;
            out = out * 10 + (text_[at_ + i] - '0');
        }
        at_ += digits;
        return true;
    }
    bool take(char c) {
        if (at_ >= text_.size() || text_[at_] != c) return false;
        ++at_;
        return true;
    }
    bool atEnd() const { return at_ == text_.size(); }
    size_t digitsAhead() const {
        size_t n = 0;
        while (at_ + n < text_.size() && isDigit(text_[at_ + n])) ++n;
        return n;
    }
    // ".fff..." to microseconds; *exact is false when a digit past the sixth is not zero.
    bool fraction(int& micros, int& digitsGiven, bool& exact) {
        micros = 0;
        digitsGiven = 0;
        exact = true;
        if (!take('.')) return true;
        const size_t digits = digitsAhead();
        if (digits == 0) return false;
        for (size_t i = 0; i < digits; ++i) {
            const int digit = text_[at_ + i] - '0';
            if (i < static_cast<size_t>(kFractionDigits)) {
                micros = micros * 10 + digit;
            } else if (digit != 0) {
                exact = false;
            }
            if (digit != 0) digitsGiven = static_cast<int>(i) + 1;
        }
        for (size_t i = digits; i < static_cast<size_t>(kFractionDigits); ++i) micros *= 10;
        at_ += digits;
        return true;
    }
    // Minutes east of UTC; 0 when the text ends without an offset.
    bool offset(int& minutes) {
        minutes = 0;
        if (atEnd()) return true;
        if (take('Z') || take('z')) return atEnd();
        const bool west = text_[at_] == '-';
        if (!take('+') && !take('-')) return false;
        int hours = 0, mins = 0;
        if (!number(hours, 2)) return false;
        if (!atEnd()) {
            take(':');
            if (!number(mins, 2)) return false;
        }
        if (!atEnd() || hours > 23 || mins > 59) return false;
        minutes = (hours * 60 + mins) * (west ? -1 : 1);
        return true;
    }

private:
    std::string_view text_;
    size_t at_ = 0;
};

// Days since 1970-01-01 of a proleptic Gregorian date, and back (H. Hinnant's algorithms).
int64_t daysFromCivil(int64_t y, int m, int d) {
    y -= m <= 2;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const int64_t yoe = y - era * 400;
    const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

void civilFromDays(int64_t z, int& y, int& m, int& d) {
    z += 719468;
    const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const int64_t doe = z - era * 146097;
    const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const int64_t mp = (5 * doy + 2) / 153;
    d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
    m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
    y = static_cast<int>(yoe + era * 400 + (m <= 2));
}

bool realDate(int y, int m, int d) {
    if (m < 1 || m > 12 || d < 1) return false;
    static const int kDays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (d > kDays[m - 1]) return false;
    const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return m != 2 || d <= 28 || leap;
}

struct Clock {
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, micros = 0;
    bool negative = false;
};

std::string formatted(const Clock& c, bool withDate, bool withTime) {
    char buffer[48];
    std::string out;
    if (withDate) {
        std::snprintf(buffer, sizeof(buffer), "%04d-%02d-%02d", c.year, c.month, c.day);
        out += buffer;
    }
    if (withDate && withTime) out += 'T';
    if (withTime) {
        std::snprintf(buffer, sizeof(buffer), "%s%02d:%02d:%02d.%06d", c.negative ? "-" : "",
                      c.hour, c.minute, c.second, c.micros);
        out += buffer;
    }
    return out;
}

// The fraction a column of `digits` fractional digits can hold (-1: up to six).
bool fitsFraction(int digitsGiven, bool exact, int digits) {
    return exact && (digits < 0 || digitsGiven <= digits);
}

std::optional<std::string> dateText(std::string_view text, KeyTextFault* why) {
    ClockReader reader(text);
    Clock c;
    if (!reader.number(c.year, 4) || !reader.take('-') || !reader.number(c.month, 2) ||
        !reader.take('-') || !reader.number(c.day, 2) || !reader.atEnd()) {
        return fault(why, KeyTextFault::Unreadable);
    }
    if (!realDate(c.year, c.month, c.day)) return fault(why, KeyTextFault::CannotHold);
    return formatted(c, true, false);
}

// A time of day, or MySQL's duration (more hours, a sign).
std::optional<std::string> timeText(std::string_view text, int digits, KeyTextFault* why) {
    ClockReader reader(text);
    Clock c;
    c.negative = reader.take('-');
    const size_t hourDigits = std::max<size_t>(2, reader.digitsAhead());
    int given = 0;
    bool exact = true;
    if (!reader.number(c.hour, hourDigits) || !reader.take(':') || !reader.number(c.minute, 2) ||
        !reader.take(':') || !reader.number(c.second, 2) ||
        !reader.fraction(c.micros, given, exact) || !reader.atEnd()) {
        return fault(why, KeyTextFault::Unreadable);
    }
    if (c.minute > 59 || c.second > 59 || !fitsFraction(given, exact, digits)) {
        return fault(why, KeyTextFault::CannotHold);
    }
    if (c.negative && c.hour == 0 && c.minute == 0 && c.second == 0 && c.micros == 0) {
        c.negative = false;
    }
    return formatted(c, false, true);
}

// A date and time; with `withOffset`, the instant it names moved to UTC.
std::optional<std::string> timestampText(std::string_view text, int digits, bool instant,
                                         KeyTextFault* why) {
    ClockReader reader(text);
    Clock c;
    int given = 0;
    bool exact = true;
    int offset = 0;
    if (!reader.number(c.year, 4) || !reader.take('-') || !reader.number(c.month, 2) ||
        !reader.take('-') || !reader.number(c.day, 2) || !(reader.take('T') || reader.take(' ')) ||
        !reader.number(c.hour, 2) || !reader.take(':') || !reader.number(c.minute, 2) ||
        !reader.take(':') || !reader.number(c.second, 2) ||
        !reader.fraction(c.micros, given, exact) || !reader.offset(offset)) {
        return fault(why, KeyTextFault::Unreadable);
    }
    if (!realDate(c.year, c.month, c.day) || c.hour > 23 || c.minute > 59 || c.second > 59 ||
        !fitsFraction(given, exact, digits)) {
        return fault(why, KeyTextFault::CannotHold);
    }
    // A local date and time journalled with an offset is only its own value at +00:00.
    if (!instant && offset != 0) return fault(why, KeyTextFault::CannotHold);
    if (offset != 0) {
        int64_t minutes =
            daysFromCivil(c.year, c.month, c.day) * 1440 + c.hour * 60 + c.minute - offset;
        int64_t days = minutes >= 0 ? minutes / 1440 : (minutes - 1439) / 1440;
        const int64_t ofDay = minutes - days * 1440;
        civilFromDays(days, c.year, c.month, c.day);
        c.hour = static_cast<int>(ofDay / 60);
        c.minute = static_cast<int>(ofDay % 60);
        if (c.year < 0 || c.year > 9999) return fault(why, KeyTextFault::CannotHold);
    }
    std::string out = formatted(c, true, true);
    if (instant) out += "+00:00";
    return out;
}

}  // namespace

std::optional<std::string> canonicalKeyText(std::string_view text, const KeyColumn& column,
                                            KeyTextFault* why) {
    switch (column.kind) {
        case TDG_KIND_INT64:
            return integerText(text, why);
        case TDG_KIND_DECIMAL:
            return decimalText(text, column.scale, why);
        case TDG_KIND_BOOL:
            return boolText(text, why);
        case TDG_KIND_BYTES:
            return bytesText(text, why);
        case TDG_KIND_DATE:
            return dateText(text, why);
        case TDG_KIND_TIME:
            return timeText(text, column.scale, why);
        case TDG_KIND_TIMESTAMP:
            return timestampText(text, column.scale, false, why);
        case TDG_KIND_TIMESTAMPTZ:
            return timestampText(text, column.scale, true, why);
        case TDG_KIND_JSON:
        case TDG_KIND_NULL:
            return fault(why, KeyTextFault::Unreadable);
        default:
            return column.caseInsensitive ? lowered(text) : std::string(text);
    }
}

std::string canonicalCellText(const TdgCell& cell, const KeyColumn& column) {
    if (cell.kind == TDG_KIND_INT64) {
        std::string out;
        appendInt64(out, cell.i64);
        return out;
    }
    if (cell.kind == TDG_KIND_BOOL) return cell.i64 != 0 ? "true" : "false";
    std::string_view text(cell.data, static_cast<size_t>(cell.size));
    if (cell.kind == TDG_KIND_BYTES) {
        std::string quoted;
        appendHexString(quoted, text);  // "\"0102\""
        return quoted.substr(1, quoted.size() - 2);
    }
    // The cell's own digits decide, not the column's declared ones: a row always matches the
    // key that reads as its value.
    KeyColumn cellColumn = column;
    if (cell.kind != TDG_KIND_DECIMAL) cellColumn.scale = -1;
    auto canonical = canonicalKeyText(text, cellColumn);
    return canonical ? std::move(*canonical) : std::string(text);
}

void appendCanonicalJson(std::string& out, TdgValueKind kind, std::string_view canonical) {
    if (kind == TDG_KIND_INT64 || kind == TDG_KIND_DECIMAL || kind == TDG_KIND_BOOL) {
        out += canonical;
    } else {
        appendJsonString(out, canonical);
    }
}

void appendKeyJson(std::string& out, TdgValueKind kind, std::string_view canonical) {
    if (kind != TDG_KIND_TIMESTAMP) {
        appendCanonicalJson(out, kind, canonical);
        return;
    }
    std::string text(canonical);
    text += "+00:00";
    appendJsonString(out, text);
}

}  // namespace tapdiffgen::core

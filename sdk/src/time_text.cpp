#include "tap-diffgen/sdk/time_text.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>

namespace tapdiffgen::sdk {
namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }

size_t countDigits(std::string_view text, size_t from) {
    size_t end = from;
    while (end < text.size() && isDigit(text[end])) ++end;
    return end - from;
}

// "HH:MM" or "HH:MM:SS" (two digits each) starting at `from`; returns its length or 0.
size_t clockLength(std::string_view text, size_t from, bool secondsRequired) {
    size_t at = from;
    if (countDigits(text, at) != 2) return 0;
    at += 2;
    for (int part = 0; part < 2; ++part) {
        if (at >= text.size() || text[at] != ':')
            return part == 0 || secondsRequired ? 0 : at - from;
        if (countDigits(text, at + 1) != 2) return 0;
        at += 3;
    }
    return at - from;
}

// The value of the two digits at `at`, or -1 when there are not two digits there.
int twoDigits(std::string_view text, size_t at) {
    if (at + 2 > text.size() || !isDigit(text[at]) || !isDigit(text[at + 1])) return -1;
    return (text[at] - '0') * 10 + (text[at + 1] - '0');
}

// "HH:MM:SS" at `at` with hours below `hourLimit` and minutes and seconds below 60.
bool validClockText(std::string_view text, size_t at, int hourLimit) {
    int hour = twoDigits(text, at);
    int minute = twoDigits(text, at + 3);
    int second = twoDigits(text, at + 6);
    return hour >= 0 && hour < hourLimit && at + 8 <= text.size() && text[at + 2] == ':' &&
           text[at + 5] == ':' && minute >= 0 && minute < 60 && second >= 0 && second < 60;
}

// "+HH", "+HH:MM", "+HH:MM:SS" or "Z" → "+HH:MM[:SS]"; false when malformed or out of range
// (an offset of a day or more, minutes or seconds of 60 or more).
bool appendOffset(std::string_view offset, std::string& out) {
    if (offset == "Z") {
        out.append("+00:00");
        return true;
    }
    if (offset.size() < 3 || (offset[0] != '+' && offset[0] != '-')) return false;
    int hours = twoDigits(offset, 1);
    if (hours < 0 || hours >= 24) return false;
    if (offset.size() == 3) {
        out.append(offset);
        out.append(":00");
        return true;
    }
    if (clockLength(offset, 1, false) != offset.size() - 1) return false;
    for (size_t at = 4; at < offset.size(); at += 3) {
        if (twoDigits(offset, at) >= 60) return false;
    }
    out.append(offset);
    return true;
}

constexpr int kMinutesPerDay = 24 * 60;
constexpr uint32_t kMicrosPerSecond = 1000000;

bool isLeapYear(int year) { return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0); }

unsigned daysInMonth(int year, unsigned month) {
    static const unsigned days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return month == 2 && isLeapYear(year) ? 29 : days[month - 1];
}

bool validDate(const DateTimeFields& f) {
    return f.year >= 0 && f.year <= 9999 && f.month >= 1 && f.month <= 12 && f.day >= 1 &&
           f.day <= daysInMonth(f.year, f.month);
}

bool validClock(const DateTimeFields& f, bool hoursBeyondDay) {
    return (hoursBeyondDay || f.hour < 24) && f.minute < 60 && f.second < 60 &&
           f.microseconds < kMicrosPerSecond;
}

bool validOffset(const std::optional<int>& minutes) {
    return !minutes || std::abs(*minutes) < kMinutesPerDay;
}

// Days since 1970-01-01 of a proleptic Gregorian date, and back (H. Hinnant's algorithms).
int64_t daysFromCivil(int64_t year, unsigned month, unsigned day) {
    year -= month <= 2 ? 1 : 0;
    const int64_t era = (year >= 0 ? year : year - 399) / 400;
    const int64_t yearOfEra = year - era * 400;
    const int64_t dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
    const int64_t dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
    return era * 146097 + dayOfEra - 719468;
}

void civilFromDays(int64_t days, DateTimeFields& f) {
    days += 719468;
    const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
    const int64_t dayOfEra = days - era * 146097;
    const int64_t yearOfEra =
        (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365;
    const int64_t dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
    const int64_t monthPart = (5 * dayOfYear + 2) / 153;
    f.day = static_cast<unsigned>(dayOfYear - (153 * monthPart + 2) / 5 + 1);
    f.month = static_cast<unsigned>(monthPart < 10 ? monthPart + 3 : monthPart - 9);
    f.year = static_cast<int>(yearOfEra + era * 400 + (f.month <= 2 ? 1 : 0));
}

// The same instant at offset 0.
DateTimeFields inUtc(const DateTimeFields& local) {
    DateTimeFields utc = local;
    utc.utcOffsetMinutes.reset();
    if (!local.utcOffsetMinutes || *local.utcOffsetMinutes == 0) return utc;
    int64_t minutes = daysFromCivil(local.year, local.month, local.day) * kMinutesPerDay +
                      local.hour * 60 + local.minute - *local.utcOffsetMinutes;
    int64_t days = (minutes >= 0 ? minutes : minutes - kMinutesPerDay + 1) / kMinutesPerDay;
    int64_t minuteOfDay = minutes - days * kMinutesPerDay;
    civilFromDays(days, utc);
    utc.hour = static_cast<unsigned>(minuteOfDay / 60);
    utc.minute = static_cast<unsigned>(minuteOfDay % 60);
    return utc;
}

// A date, time or timestamp is written into this buffer and appended to the output once:
// appending it a character and a field at a time took 8% of a MariaDB replay's instructions
// (a date or time column a row, and ts_created of every event). The longest text is a
// TIMESTAMPTZ, "9999-12-31T23:59:59.999999+23:59", 32 characters: the fields are checked
// first (years 0-9999, TIME's hours up to 9999, offsets under a day).
class TimeText {
public:
    TimeText() = default;
    TimeText(const TimeText&) = delete;
    TimeText& operator=(const TimeText&) = delete;

    // The last `width` decimal digits of `value`, zero-padded: the fields are checked to fit.
    void digits(uint64_t value, int width) {
        for (int i = width - 1; i >= 0; --i) {
            end_[i] = static_cast<char>('0' + value % 10);
            value /= 10;
        }
        end_ += width;
    }
    void put(char c) { *end_++ = c; }
    void appendTo(std::string& out) const { out.append(text_, static_cast<size_t>(end_ - text_)); }

private:
    char text_[40];
    char* end_ = text_;
};

void appendDate(const DateTimeFields& f, TimeText& text) {
    text.digits(static_cast<uint64_t>(f.year), 4);
    text.put('-');
    text.digits(f.month, 2);
    text.put('-');
    text.digits(f.day, 2);
}

// A TIME's hours go up to 9999; every other field has its fixed width.
int hourDigits(unsigned hour) { return hour >= 1000 ? 4 : hour >= 100 ? 3 : 2; }

void appendClock(const DateTimeFields& f, TimeText& text) {
    text.digits(f.hour, hourDigits(f.hour));
    text.put(':');
    text.digits(f.minute, 2);
    text.put(':');
    text.digits(f.second, 2);
    text.put('.');
    text.digits(f.microseconds, 6);
}

void appendOffsetMinutes(int minutes, TimeText& text) {
    const int magnitude = std::abs(minutes);
    text.put(minutes < 0 ? '-' : '+');
    text.digits(static_cast<uint64_t>(magnitude / 60), 2);
    text.put(':');
    text.digits(static_cast<uint64_t>(magnitude % 60), 2);
}

}  // namespace

DateTimeFields dateFromUnixDays(int64_t days) {
    DateTimeFields fields;
    civilFromDays(days, fields);
    return fields;
}

bool appendIsoFromFields(TdgValueKind kind, const DateTimeFields& fields, std::string& out) {
    if (!validOffset(fields.utcOffsetMinutes)) return false;
    TimeText text;
    switch (kind) {
        case TDG_KIND_DATE:
            if (!validDate(fields)) return false;
            appendDate(fields, text);
            break;
        case TDG_KIND_TIME:
            if (!validClock(fields, true) || fields.hour > 9999) return false;
            if (fields.negative) text.put('-');
            appendClock(fields, text);
            if (fields.utcOffsetMinutes) appendOffsetMinutes(*fields.utcOffsetMinutes, text);
            break;
        case TDG_KIND_TIMESTAMP:
        case TDG_KIND_TIMESTAMPTZ: {
            if (!validDate(fields) || !validClock(fields, false)) return false;
            DateTimeFields shown = kind == TDG_KIND_TIMESTAMP ? inUtc(fields) : fields;
            if (!validDate(shown)) return false;  // moved past year 9999 or before year 0
            appendDate(shown, text);
            text.put('T');
            appendClock(shown, text);
            if (kind == TDG_KIND_TIMESTAMPTZ) {
                appendOffsetMinutes(fields.utcOffsetMinutes.value_or(0), text);
            }
            break;
        }
        default:
            return false;
    }
    text.appendTo(out);
    return true;
}

bool appendIsoTime(std::string_view text, std::string& out) {
    const bool negative = !text.empty() && text[0] == '-';
    const size_t hours = countDigits(text, negative ? 1 : 0);
    if (hours < 2) return false;
    const size_t clockStart = (negative ? 1 : 0) + hours - 2;
    if (clockLength(text, clockStart, true) != 8) return false;
    const int minute = twoDigits(text, clockStart + 3);
    const int second = twoDigits(text, clockStart + 6);
    if (minute >= 60 || second >= 60) return false;
    size_t at = clockStart + 8;

    std::string_view fraction;
    if (at < text.size() && text[at] == '.') {
        size_t digits = countDigits(text, at + 1);
        if (digits == 0) return false;
        fraction = text.substr(at + 1, digits);
        at += 1 + digits;
    }
    std::string result(text.substr(0, clockStart + 8));
    result.push_back('.');
    result.append(fraction.substr(0, 6));
    result.append(6 - std::min<size_t>(fraction.size(), 6), '0');
    if (at < text.size()) {
        // A time of day with its zone (timetz): 00:00:00 to 24:00:00, never a duration.
        const bool dayEnd =
            text.substr(0, at).find_first_not_of("0:.", 2) == std::string_view::npos;
        const int hour = twoDigits(text, clockStart);
        if (negative || hours != 2 || hour > 24 || (hour == 24 && !dayEnd)) return false;
        if (!appendOffset(text.substr(at), result)) return false;
    }
    out.append(result);
    return true;
}

bool appendIsoTimestamp(std::string_view text, std::string& out) {
    // "YYYY-MM-DD HH:MM:SS" (or 'T'), checked in place: a page's every event passes here.
    constexpr size_t kClockAt = 11;
    constexpr size_t kFractionAt = 19;
    if (text.size() < kFractionAt || countDigits(text, 0) != 4 || text[4] != '-' ||
        text[7] != '-' || (text[10] != ' ' && text[10] != 'T')) {
        return false;
    }
    DateTimeFields date;
    date.year = twoDigits(text, 0) * 100 + twoDigits(text, 2);
    const int month = twoDigits(text, 5);
    const int day = twoDigits(text, 8);
    if (month < 1 || day < 1) return false;
    date.month = static_cast<unsigned>(month);
    date.day = static_cast<unsigned>(day);
    if (!validDate(date) || !validClockText(text, kClockAt, 24)) return false;

    size_t at = kFractionAt;
    std::string_view fraction;
    if (at < text.size() && text[at] == '.') {
        const size_t digits = countDigits(text, at + 1);
        if (digits == 0) return false;
        fraction = text.substr(at + 1, std::min<size_t>(digits, 6));
        at += 1 + digits;
    }
    std::string zone;  // empty when there is no offset
    if (at < text.size() && !appendOffset(text.substr(at), zone)) return false;

    // The pieces are measured first and copied into the output grown once: about 100
    // instructions fewer a timestamp than appending them one by one.
    const size_t start = out.size();
    out.resize(start + kFractionAt + 7 + zone.size());
    char* to = out.data() + start;
    text.copy(to, kFractionAt);
    to[10] = 'T';
    to += kFractionAt;
    *to++ = '.';
    to = std::fill_n(to + fraction.copy(to, fraction.size()), 6 - fraction.size(), '0');
    zone.copy(to, zone.size());
    return true;
}

}  // namespace tapdiffgen::sdk

#include "tap-diffgen/sdk/time_text.hpp"

#include <algorithm>
#include <charconv>
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

// "+HH", "+HH:MM", "+HH:MM:SS" or "Z" → "+HH:MM[:SS]"; false when malformed.
bool appendOffset(std::string_view offset, std::string& out) {
    if (offset == "Z") {
        out.append("+00:00");
        return true;
    }
    if (offset.size() < 3 || (offset[0] != '+' && offset[0] != '-')) return false;
    if (offset.size() == 3) {
        if (countDigits(offset, 1) != 2) return false;
        out.append(offset);
        out.append(":00");
        return true;
    }
    if (clockLength(offset, 1, false) != offset.size() - 1) return false;
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

// `value` in decimal, zero-padded to at least `width` digits (printf's %0*u). Dates and times
// are written with it rather than snprintf, which took a third of the tap's instructions on a
// MariaDB replay (a date or time column a row, and ts_created of every event).
void appendPadded(uint64_t value, int width, std::string& out) {
    char digits[24];
    char* end = std::to_chars(digits, digits + sizeof(digits), value).ptr;
    for (auto n = end - digits; n < width; ++n) out.push_back('0');
    out.append(digits, end);
}

void appendDate(const DateTimeFields& f, std::string& out) {
    appendPadded(static_cast<uint64_t>(f.year), 4, out);
    out.push_back('-');
    appendPadded(f.month, 2, out);
    out.push_back('-');
    appendPadded(f.day, 2, out);
}

void appendClock(const DateTimeFields& f, std::string& out) {
    appendPadded(f.hour, 2, out);
    out.push_back(':');
    appendPadded(f.minute, 2, out);
    out.push_back(':');
    appendPadded(f.second, 2, out);
    out.push_back('.');
    appendPadded(f.microseconds, 6, out);
}

void appendOffsetMinutes(int minutes, std::string& out) {
    const int magnitude = std::abs(minutes);
    out.push_back(minutes < 0 ? '-' : '+');
    appendPadded(static_cast<uint64_t>(magnitude / 60), 2, out);
    out.push_back(':');
    appendPadded(static_cast<uint64_t>(magnitude % 60), 2, out);
}

}  // namespace

bool appendIsoFromFields(TdgValueKind kind, const DateTimeFields& fields, std::string& out) {
    if (!validOffset(fields.utcOffsetMinutes)) return false;
    switch (kind) {
        case TDG_KIND_DATE:
            if (!validDate(fields)) return false;
            appendDate(fields, out);
            return true;
        case TDG_KIND_TIME:
            if (!validClock(fields, true) || fields.hour > 9999) return false;
            if (fields.negative) out.push_back('-');
            appendClock(fields, out);
            if (fields.utcOffsetMinutes) appendOffsetMinutes(*fields.utcOffsetMinutes, out);
            return true;
        case TDG_KIND_TIMESTAMP:
        case TDG_KIND_TIMESTAMPTZ: {
            if (!validDate(fields) || !validClock(fields, false)) return false;
            DateTimeFields shown = kind == TDG_KIND_TIMESTAMP ? inUtc(fields) : fields;
            if (!validDate(shown)) return false;  // moved past year 9999 or before year 0
            appendDate(shown, out);
            out.push_back('T');
            appendClock(shown, out);
            if (kind == TDG_KIND_TIMESTAMPTZ) {
                appendOffsetMinutes(fields.utcOffsetMinutes.value_or(0), out);
            }
            return true;
        }
        default:
            return false;
    }
}

bool appendIsoTime(std::string_view text, std::string& out) {
    size_t at = text.size() > 0 && text[0] == '-' ? 1 : 0;
    size_t hours = countDigits(text, at);
    if (hours < 2) return false;
    size_t clockStart = at + hours - 2;
    size_t clock = clockLength(text, clockStart, true);
    if (clock != 8) return false;
    at = clockStart + clock;

    std::string_view fraction;
    if (at < text.size() && text[at] == '.') {
        size_t digits = countDigits(text, at + 1);
        if (digits == 0) return false;
        fraction = text.substr(at + 1, digits);
        at += 1 + digits;
    }
    std::string result(text.substr(0, clockStart + clock));
    result.push_back('.');
    result.append(fraction.substr(0, 6));
    result.append(6 - std::min<size_t>(fraction.size(), 6), '0');
    if (at < text.size() && !appendOffset(text.substr(at), result)) return false;
    out.append(result);
    return true;
}

}  // namespace tapdiffgen::sdk

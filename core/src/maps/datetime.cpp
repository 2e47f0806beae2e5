#include "maps/datetime.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>

namespace tapdiffgen::core::maps {
namespace {

int64_t floorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

std::string twoDigits(int64_t v) {
    char buffer[8];
    std::snprintf(buffer, sizeof buffer, "%02lld", static_cast<long long>(v));
    return buffer;
}

std::string offsetText(int32_t offset) {
    std::string out = offset < 0 ? "-" : "+";
    int32_t magnitude = offset < 0 ? -offset : offset;
    out += twoDigits(magnitude / 3600) + ":" + twoDigits(magnitude / 60 % 60);
    if (magnitude % 60 != 0) out += ":" + twoDigits(magnitude % 60);
    return out;
}

bool digits(std::string_view text, size_t at, size_t count, int64_t& value) {
    if (at + count > text.size()) return false;
    value = 0;
    for (size_t i = at; i < at + count; ++i) {
        if (text[i] < '0' || text[i] > '9') return false;
        value = value * 10 + (text[i] - '0');
    }
    return true;
}

int64_t daysInMonth(int64_t year, int64_t month) {
    static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return month == 2 && leap ? 29 : kDays[month - 1];
}

}  // namespace

int64_t daysFromCivil(int64_t y, int64_t m, int64_t d) {
    y -= m <= 2;
    const int64_t era = floorDiv(y, 400);
    const int64_t yoe = y - era * 400;
    const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

CivilTime civilFromMicros(int64_t micros) {
    const int64_t days = floorDiv(micros, kMicrosPerDay);
    int64_t rest = micros - days * kMicrosPerDay;
    const int64_t z = days + 719468;
    const int64_t era = floorDiv(z, 146097);
    const int64_t doe = z - era * 146097;
    const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const int64_t mp = (5 * doy + 2) / 153;
    CivilTime t{};
    t.day = doy - (153 * mp + 2) / 5 + 1;
    t.month = mp < 10 ? mp + 3 : mp - 9;
    t.year = yoe + era * 400 + (t.month <= 2);
    t.hour = rest / (3600 * kMicrosPerSecond);
    rest %= 3600 * kMicrosPerSecond;
    t.minute = rest / (60 * kMicrosPerSecond);
    rest %= 60 * kMicrosPerSecond;
    t.second = rest / kMicrosPerSecond;
    t.micros = rest % kMicrosPerSecond;
    return t;
}

Value makeDateTime(int64_t micros, std::optional<int32_t> offsetSeconds) {
    Value v;
    v.type = ValueType::DateTime;
    v.integer = micros;
    v.hasOffset = offsetSeconds.has_value();
    v.offsetSeconds = offsetSeconds.value_or(0);
    return v;
}

Value makeDate(int64_t days) {
    Value v;
    v.type = ValueType::Date;
    v.integer = days * kMicrosPerDay;
    return v;
}

Value makeTimeDelta(int64_t micros) {
    Value v;
    v.type = ValueType::TimeDelta;
    v.integer = micros;
    return v;
}

Value nowUtc(bool aware) {
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    const int64_t micros = std::chrono::duration_cast<std::chrono::microseconds>(now).count();
    return makeDateTime(micros, aware ? std::optional<int32_t>(0) : std::nullopt);
}

namespace {

void checkField(int64_t value, int64_t least, int64_t most, const char* name) {
    if (value < least || value > most) {
        valueError(std::string(name) + " must be in " + std::to_string(least) + ".." +
                   std::to_string(most));
    }
}

}  // namespace

Value fromFields(const CivilTime& t, bool dateOnly) {
    if (t.year < 1 || t.year > 9999)
        valueError("year " + std::to_string(t.year) + " is out of range");
    checkField(t.month, 1, 12, "month");
    if (t.day < 1 || t.day > daysInMonth(t.year, t.month))
        valueError("day is out of range for month");
    const int64_t days = daysFromCivil(t.year, t.month, t.day);
    if (dateOnly) return makeDate(days);
    checkField(t.hour, 0, 23, "hour");
    checkField(t.minute, 0, 59, "minute");
    checkField(t.second, 0, 59, "second");
    checkField(t.micros, 0, 999999, "microsecond");
    return makeDateTime(days * kMicrosPerDay +
                            ((t.hour * 60 + t.minute) * 60 + t.second) * kMicrosPerSecond +
                            t.micros,
                        std::nullopt);
}

Value checkedTimeDelta(long double micros) {
    if (std::isnan(micros)) valueError("cannot convert float NaN to integer");
    if (std::isinf(micros)) overflowError("cannot convert float infinity to integer");
    // 64-bit microseconds hold 106,751,991 days: within that, negation and the sum of two are
    // within what this check sees.
    constexpr long double kMostMicros = 106751991.0L * kMicrosPerDay;
    const long double days = std::floor(micros / kMicrosPerDay);
    const bool pastPython = std::fabs(days) > 999999999;
    if (pastPython || std::fabs(micros) > kMostMicros) {
        char text[96];
        std::snprintf(text, sizeof text, "days=%.0Lf; must have magnitude <= %d", days,
                      pastPython ? 999999999 : 106751991);
        overflowError(text);
    }
    return makeTimeDelta(static_cast<int64_t>(std::llroundl(micros)));
}

Value checkedDate(const Value& value) {
    const int64_t year = civilFromMicros(value.integer).year;
    if (year < 1 || year > 9999) overflowError("date value out of range");
    return value;
}

// YYYY-MM-DD, then for a datetime [T or space]HH[:MM[:SS[.ffffff]]] and Z or ±HH:MM.
std::optional<Value> parseIsoDateTime(std::string_view text, bool dateOnly) {
    int64_t year, month, day;
    if (!digits(text, 0, 4, year) || text.size() < 10 || text[4] != '-' ||
        !digits(text, 5, 2, month) || text[7] != '-' || !digits(text, 8, 2, day)) {
        return std::nullopt;
    }
    if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return std::nullopt;
    const int64_t days = daysFromCivil(year, month, day);
    if (dateOnly) {
        if (text.size() != 10) return std::nullopt;
        return makeDate(days);
    }
    int64_t hour = 0, minute = 0, second = 0, micros = 0;
    size_t at = 10;
    if (at < text.size()) {
        if (text[at] != 'T' && text[at] != ' ') return std::nullopt;
        if (!digits(text, at + 1, 2, hour)) return std::nullopt;
        at += 3;
        if (at < text.size() && text[at] == ':') {
            if (!digits(text, at + 1, 2, minute)) return std::nullopt;
            at += 3;
            if (at < text.size() && text[at] == ':') {
                if (!digits(text, at + 1, 2, second)) return std::nullopt;
                at += 3;
                if (at < text.size() && (text[at] == '.' || text[at] == ',')) {
                    size_t count = 0;
                    ++at;
                    while (at < text.size() && text[at] >= '0' && text[at] <= '9') {
                        if (count < 6) micros = micros * 10 + (text[at] - '0');
                        ++count;
                        ++at;
                    }
                    if (count == 0) return std::nullopt;
                    for (; count < 6; ++count) micros *= 10;
                }
            }
        }
    }
    if (hour > 23 || minute > 59 || second > 59) return std::nullopt;
    std::optional<int32_t> offset;
    if (at < text.size()) {
        if (text[at] == 'Z' && at + 1 == text.size()) {
            offset = 0;
        } else if (text[at] == '+' || text[at] == '-') {
            int64_t oh, om = 0;
            if (!digits(text, at + 1, 2, oh)) return std::nullopt;
            size_t end = at + 3;
            if (end < text.size()) {
                if (text[end] == ':') ++end;
                if (!digits(text, end, 2, om)) return std::nullopt;
                end += 2;
            }
            if (end != text.size()) return std::nullopt;
            offset = static_cast<int32_t>((oh * 3600 + om * 60) * (text[at] == '-' ? -1 : 1));
        } else {
            return std::nullopt;
        }
    }
    const int64_t wall =
        days * kMicrosPerDay + ((hour * 60 + minute) * 60 + second) * kMicrosPerSecond + micros;
    return makeDateTime(wall, offset);
}

std::string dateTimeText(const Value& value, char separator) {
    const CivilTime t = civilFromMicros(value.integer);
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%04lld-%02lld-%02lld", static_cast<long long>(t.year),
                  static_cast<long long>(t.month), static_cast<long long>(t.day));
    std::string out = buffer;
    if (value.type == ValueType::Date) return out;
    std::snprintf(buffer, sizeof buffer, "%c%02lld:%02lld:%02lld", separator,
                  static_cast<long long>(t.hour), static_cast<long long>(t.minute),
                  static_cast<long long>(t.second));
    out += buffer;
    if (t.micros != 0) {
        std::snprintf(buffer, sizeof buffer, ".%06lld", static_cast<long long>(t.micros));
        out += buffer;
    }
    if (value.hasOffset) out += offsetText(value.offsetSeconds);
    return out;
}

std::string timeDeltaText(const Value& value) {
    const int64_t days = floorDiv(value.integer, kMicrosPerDay);
    const int64_t rest = value.integer - days * kMicrosPerDay;
    std::string out;
    if (days != 0) out = std::to_string(days) + (days == 1 || days == -1 ? " day, " : " days, ");
    const int64_t seconds = rest / kMicrosPerSecond;
    out += std::to_string(seconds / 3600) + ":" + twoDigits(seconds / 60 % 60) + ":" +
           twoDigits(seconds % 60);
    if (rest % kMicrosPerSecond != 0) {
        char buffer[16];
        std::snprintf(buffer, sizeof buffer, ".%06lld",
                      static_cast<long long>(rest % kMicrosPerSecond));
        out += buffer;
    }
    return out;
}

std::string strftime(const Value& value, std::string_view format) {
    const CivilTime t = civilFromMicros(value.integer);
    std::string out;
    char buffer[32];
    for (size_t i = 0; i < format.size(); ++i) {
        if (format[i] != '%' || i + 1 == format.size()) {
            out.push_back(format[i]);
            continue;
        }
        const char code = format[++i];
        switch (code) {
            case 'Y':
                std::snprintf(buffer, sizeof buffer, "%04lld", static_cast<long long>(t.year));
                break;
            case 'm':
                std::snprintf(buffer, sizeof buffer, "%02lld", static_cast<long long>(t.month));
                break;
            case 'd':
                std::snprintf(buffer, sizeof buffer, "%02lld", static_cast<long long>(t.day));
                break;
            case 'H':
                std::snprintf(buffer, sizeof buffer, "%02lld", static_cast<long long>(t.hour));
                break;
            case 'M':
                std::snprintf(buffer, sizeof buffer, "%02lld", static_cast<long long>(t.minute));
                break;
            case 'S':
                std::snprintf(buffer, sizeof buffer, "%02lld", static_cast<long long>(t.second));
                break;
            case 'f':
                std::snprintf(buffer, sizeof buffer, "%06lld", static_cast<long long>(t.micros));
                break;
            case 'z':
                if (value.hasOffset) {
                    std::string offset = offsetText(value.offsetSeconds);
                    offset.erase(3, 1);  // Python's %z has no colon: +0100
                    std::snprintf(buffer, sizeof buffer, "%s", offset.c_str());
                } else {
                    buffer[0] = '\0';
                }
                break;
            case '%':
                std::snprintf(buffer, sizeof buffer, "%%");
                break;
            default:
                throw EvalError(std::string("strftime code %") + code + " is not supported");
        }
        out += buffer;
    }
    return out;
}

}  // namespace tapdiffgen::core::maps

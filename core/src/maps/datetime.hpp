// Python's datetime.datetime, date and timedelta, as far as stream-map expressions use them:
// wall-clock microseconds since 1970-01-01 plus an optional fixed UTC offset.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "maps/value.hpp"

namespace tapdiffgen::core::maps {

constexpr int64_t kMicrosPerSecond = 1000000;
constexpr int64_t kMicrosPerDay = 86400 * kMicrosPerSecond;

struct CivilTime {
    int64_t year, month, day, hour, minute, second, micros;
};

int64_t daysFromCivil(int64_t year, int64_t month, int64_t day);
CivilTime civilFromMicros(int64_t micros);

Value makeDateTime(int64_t micros, std::optional<int32_t> offsetSeconds);
Value makeDate(int64_t days);
Value makeTimeDelta(int64_t micros);
Value nowUtc(bool aware);

/// datetime.datetime(...) or datetime.date(...) of these fields (a date reads year, month and
/// day), checked as Python checks them: ValueError("month must be in 1..12"), ...
Value fromFields(const CivilTime& fields, bool dateOnly);

/// A timedelta of `micros`, or Python's error when it cannot be one: NaN and infinities, and
/// what is past 999,999,999 days (Python's bound) or past 64-bit microseconds, about
/// 106,751,991 days (this tap's).
Value checkedTimeDelta(long double micros);

/// `value`, a datetime or date, when its year is one Python's datetime holds (1 to 9999);
/// OverflowError("date value out of range") when not.
Value checkedDate(const Value& value);

/// datetime.fromisoformat / date.fromisoformat; nullopt when the text is not ISO 8601.
std::optional<Value> parseIsoDateTime(std::string_view text, bool dateOnly);

/// str() of a datetime, date or timedelta; isoformat() of a datetime or date.
std::string dateTimeText(const Value& value, char separator);
std::string timeDeltaText(const Value& value);
std::string strftime(const Value& value, std::string_view format);

}  // namespace tapdiffgen::core::maps

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

/// datetime.fromisoformat / date.fromisoformat; nullopt when the text is not ISO 8601.
std::optional<Value> parseIsoDateTime(std::string_view text, bool dateOnly);

/// str() of a datetime, date or timedelta; isoformat() of a datetime or date.
std::string dateTimeText(const Value& value, char separator);
std::string timeDeltaText(const Value& value);
std::string strftime(const Value& value, std::string_view format);

}  // namespace tapdiffgen::core::maps

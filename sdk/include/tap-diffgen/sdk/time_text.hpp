// The ABI's TIME text form, shared by every dialect driver (values.hpp has the timestamp one),
// and the text of every date/time kind from the fields a structured client hands over.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "tap-diffgen/dialect_abi.h"

namespace tapdiffgen::sdk {

/// Appends a server time-of-day text ("13:14:15.5+02", "838:59:59", "-01:00:00.25") in the
/// ABI's TIME form: the fraction padded or cut to 6 digits, an offset as "+HH:MM" (or
/// "+HH:MM:SS" when the server gave seconds), "Z" as "+00:00". Without an offset the hours may
/// have more than two digits and a sign (a duration: MySQL TIME); with one it is a time of day
/// from 00:00:00 to 24:00:00 (PostgreSQL's timetz). Returns false, leaving `out` unchanged, when
/// `text` is not such a time: minutes or seconds of 60 or more ("25:61:00"), an offset of a day
/// or more, a time of day past 24:00:00. (Strict since SDK 0.2.0.)
bool appendIsoTime(std::string_view text, std::string& out);

/// A date, time or timestamp as separate fields (MYSQL_TIME, ODBC's SQL_TIMESTAMP_STRUCT, ...).
/// Since SDK 0.2.0.
struct DateTimeFields {
    int year = 1970;
    unsigned month = 1;
    unsigned day = 1;
    unsigned hour = 0;  // TIME: may exceed 23 (MySQL TIME, up to 838)
    unsigned minute = 0;
    unsigned second = 0;
    uint32_t microseconds = 0;
    bool negative = false;  // TIME only: a negative duration (MySQL TIME)
    /// Minutes east of UTC (+02:00 is 120); nullopt when the client gave no offset.
    std::optional<int> utcOffsetMinutes;
};

/// The proleptic Gregorian date `days` days after 1970-01-01 (before it when negative) as the
/// year, month and day of DateTimeFields, the other fields left as they are by default: for
/// clients that count days or microseconds from an epoch (PostgreSQL's binary format).
/// Astronomical years: 0 is 1 BC, -1 is 2 BC. Since SDK 0.2.0.
DateTimeFields dateFromUnixDays(int64_t days);

/// The ABI's text of `fields` for `kind` (see TdgValueKind):
///   DATE         "YYYY-MM-DD" (the clock and the offset are ignored)
///   TIME         "[-]HH:MM:SS.ffffff", with "+HH:MM" when an offset is given
///   TIMESTAMP    "YYYY-MM-DDTHH:MM:SS.ffffff" in UTC: a value with an offset is moved to UTC
///   TIMESTAMPTZ  "YYYY-MM-DDTHH:MM:SS.ffffff+HH:MM", the instant with its offset (none: UTC)
/// Returns false, leaving `out` unchanged, when a field is out of range (year outside 0..9999,
/// a day the month does not have, minute 60, an offset of a day or more) or `kind` is none of
/// these four. Zero dates (month or day 0) are out of range: a driver sends them as NULL.
bool appendIsoFromFields(TdgValueKind kind, const DateTimeFields& fields, std::string& out);

}  // namespace tapdiffgen::sdk

#include "timestamp_text.hpp"

#include <charconv>

#include "tap-diffgen/sdk/time_text.hpp"
#include "tap-diffgen/sdk/values.hpp"

namespace tapdiffgen::sqlite {
namespace {

// The length of "YYYY-MM-DDTHH:MM:SS.ffffff", what sdk::appendIsoTimestamp writes before any
// offset.
constexpr size_t kIsoLength = 26;

bool digitsAt(std::string_view text, size_t at, size_t count, int& value) {
    if (at + count > text.size()) return false;
    auto parsed = std::from_chars(text.data() + at, text.data() + at + count, value);
    return parsed.ec == std::errc() && parsed.ptr == text.data() + at + count;
}

// Completes the forms SQLite accepts but sdk::appendIsoTimestamp does not: a date alone and a
// time without seconds.
std::string completed(std::string_view text) {
    std::string full(text);
    if (full.size() == 10) return full + " 00:00:00";
    bool hasMinutesOnly = full.size() >= 16 && full[13] == ':' &&
                          (full.size() == 16 || (full[16] != ':' && full[16] != '.'));
    if (hasMinutesOnly) full.insert(16, ":00");
    return full;
}

// "+HH:MM" or "-HH:MM" as minutes east of UTC.
bool offsetMinutes(std::string_view offset, int& minutes) {
    int hours = 0;
    int rest = 0;
    if (offset.size() != 6 || (offset[0] != '+' && offset[0] != '-') || offset[3] != ':' ||
        !digitsAt(offset, 1, 2, hours) || !digitsAt(offset, 4, 2, rest)) {
        return false;
    }
    minutes = (hours * 60 + rest) * (offset[0] == '-' ? -1 : 1);
    return true;
}

// The ISO text's fields, shifted to UTC and written back by the SDK (which also checks the
// calendar date and the clock).
bool shiftToUtc(std::string_view iso, int minutesEast, std::string& out) {
    int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0, micros = 0;
    if (!digitsAt(iso, 0, 4, y) || !digitsAt(iso, 5, 2, mo) || !digitsAt(iso, 8, 2, d) ||
        !digitsAt(iso, 11, 2, h) || !digitsAt(iso, 14, 2, mi) || !digitsAt(iso, 17, 2, s) ||
        !digitsAt(iso, 20, 6, micros)) {
        return false;
    }
    sdk::DateTimeFields fields;
    fields.year = y;
    fields.month = static_cast<unsigned>(mo);
    fields.day = static_cast<unsigned>(d);
    fields.hour = static_cast<unsigned>(h);
    fields.minute = static_cast<unsigned>(mi);
    fields.second = static_cast<unsigned>(s);
    fields.microseconds = static_cast<uint32_t>(micros);
    fields.utcOffsetMinutes = minutesEast;
    return sdk::appendIsoFromFields(TDG_KIND_TIMESTAMP, fields, out);
}

}  // namespace

bool appendUtcTimestamp(std::string_view text, std::string& out) {
    std::string iso;
    if (text.size() < 10 || !sdk::appendIsoTimestamp(completed(text), iso)) return false;
    if (iso.size() < kIsoLength || iso[10] != 'T' || iso[19] != '.') return false;
    int minutesEast = 0;
    if (iso.size() > kIsoLength &&
        !offsetMinutes(std::string_view(iso).substr(kIsoLength), minutesEast)) {
        return false;
    }
    // Also without an offset: the shift validates the calendar date and the clock.
    return shiftToUtc(iso, minutesEast, out);
}

}  // namespace tapdiffgen::sqlite

#include "binary_values.hpp"

#include <algorithm>
#include <limits>

#include "tap-diffgen/sdk/errors.hpp"
#include "tap-diffgen/sdk/time_text.hpp"

namespace tapdiffgen::postgres {
namespace {

// The wire is big-endian two's complement.
int64_t bigEndian64(std::string_view wire, const char* type) {
    if (wire.size() != 8) {
        throw sdk::DriverError(TDG_INVALID_DATA,
                               std::string("PostgreSQL sent a malformed binary ") + type);
    }
    uint64_t value = 0;
    for (char byte : wire) value = (value << 8) | static_cast<unsigned char>(byte);
    return static_cast<int64_t>(value);
}

// Days from 1970-01-01 to PostgreSQL's epoch, 2000-01-01.
constexpr int64_t kEpochDays = 10957;
constexpr int64_t kMicrosPerDay = 86400LL * 1000000;

// Writes `value` as `width` decimal digits at `to` (the caller's value fits); returns the end.
char* writePadded(uint64_t value, int width, char* to) {
    for (int i = width - 1; i >= 0; --i) {
        to[i] = static_cast<char>('0' + value % 10);
        value /= 10;
    }
    return to + width;
}

// Writes "YYYY-MM-DD" at `to`, which has room for 10 characters; returns the end, or nullptr
// for the years the ABI's dates cannot hold: before 1 (BC) and past 9999, as
// sdk::appendIsoTimestamp refuses them as text. (Not sdk::appendIsoFromFields, which would check
// the fields the calendar computed once more.)
char* writeCivilDate(int64_t daysSince1970, char* to) {
    const sdk::DateTimeFields date = sdk::dateFromUnixDays(daysSince1970);
    if (date.year < 1 || date.year > 9999) return nullptr;
    to = writePadded(static_cast<uint64_t>(date.year), 4, to);
    *to++ = '-';
    to = writePadded(date.month, 2, to);
    *to++ = '-';
    return writePadded(date.day, 2, to);
}

}  // namespace

int64_t binaryInt8(std::string_view wire) { return bigEndian64(wire, "bigint"); }

bool appendBinaryTimestampTz(std::string_view wire, std::string& out) {
    const int64_t micros = bigEndian64(wire, "timestamp");
    if (micros == std::numeric_limits<int64_t>::min() ||
        micros == std::numeric_limits<int64_t>::max()) {
        return false;  // -infinity, infinity
    }
    int64_t days = micros / kMicrosPerDay;
    int64_t ofDay = micros % kMicrosPerDay;
    if (ofDay < 0) {
        ofDay += kMicrosPerDay;
        --days;
    }
    char text[48];
    char* to = writeCivilDate(days + kEpochDays, text);
    if (to == nullptr) return false;
    const auto seconds = static_cast<uint64_t>(ofDay / 1000000);
    *to++ = 'T';
    to = writePadded(seconds / 3600, 2, to);
    *to++ = ':';
    to = writePadded(seconds / 60 % 60, 2, to);
    *to++ = ':';
    to = writePadded(seconds % 60, 2, to);
    *to++ = '.';
    to = writePadded(static_cast<uint64_t>(ofDay % 1000000), 6, to);
    to = std::copy_n("+00:00", 6, to);
    out.append(text, to);
    return true;
}

}  // namespace tapdiffgen::postgres

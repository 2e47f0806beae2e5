// The SDK's text forms for drivers over a structured client: date/time fields as the ABI's
// DATE, TIME, TIMESTAMP and TIMESTAMPTZ texts, a client's decimal spelling as a JSON number,
// and column schemas with a format.
#include <doctest/doctest.h>

#include <limits>
#include <string>

#include "tap-diffgen/sdk/errors.hpp"
#include "tap-diffgen/sdk/time_text.hpp"
#include "tap-diffgen/sdk/values.hpp"

using tapdiffgen::sdk::appendIsoFromFields;
using tapdiffgen::sdk::appendIsoTimestamp;
using tapdiffgen::sdk::dateFromUnixDays;
using tapdiffgen::sdk::DateTimeFields;
using tapdiffgen::sdk::DriverError;
using tapdiffgen::sdk::jsonNumberFromDecimal;
using tapdiffgen::sdk::jsonSchemaForKind;

namespace {

DateTimeFields at(int year, unsigned month, unsigned day, unsigned hour = 0, unsigned minute = 0,
                  unsigned second = 0, uint32_t micros = 0) {
    DateTimeFields fields;
    fields.year = year;
    fields.month = month;
    fields.day = day;
    fields.hour = hour;
    fields.minute = minute;
    fields.second = second;
    fields.microseconds = micros;
    return fields;
}

DateTimeFields withOffset(DateTimeFields fields, int minutes) {
    fields.utcOffsetMinutes = minutes;
    return fields;
}

std::string iso(std::string_view serverText) {
    std::string out = "<";
    if (!appendIsoTimestamp(serverText, out)) return out == "<" ? "rejected" : "touched";
    return out.substr(1);
}

std::string text(TdgValueKind kind, const DateTimeFields& fields) {
    std::string out = "<";
    if (!appendIsoFromFields(kind, fields, out)) return out == "<" ? "rejected" : "touched";
    return out.substr(1);
}

}  // namespace

TEST_CASE("appendIsoFromFields writes each kind's exact form") {
    DateTimeFields leapDay = at(2024, 2, 29, 13, 14, 15, 123456);
    CHECK(text(TDG_KIND_DATE, leapDay) == "2024-02-29");
    CHECK(text(TDG_KIND_TIME, leapDay) == "13:14:15.123456");
    CHECK(text(TDG_KIND_TIMESTAMP, leapDay) == "2024-02-29T13:14:15.123456");
    CHECK(text(TDG_KIND_TIMESTAMPTZ, leapDay) == "2024-02-29T13:14:15.123456+00:00");
    CHECK(text(TDG_KIND_TIMESTAMP, at(7, 1, 2, 3, 4, 5, 6)) == "0007-01-02T03:04:05.000006");
}

TEST_CASE("appendIsoFromFields keeps an offset for TIMESTAMPTZ and TIME, moves TIMESTAMP to UTC") {
    DateTimeFields east = withOffset(at(2024, 2, 29, 15, 14, 15, 5), 120);
    CHECK(text(TDG_KIND_TIMESTAMPTZ, east) == "2024-02-29T15:14:15.000005+02:00");
    CHECK(text(TDG_KIND_TIMESTAMP, east) == "2024-02-29T13:14:15.000005");
    CHECK(text(TDG_KIND_TIMESTAMPTZ, withOffset(at(2024, 1, 1), -210)) ==
          "2024-01-01T00:00:00.000000-03:30");
    CHECK(text(TDG_KIND_TIME, withOffset(at(1970, 1, 1, 9, 30), -300)) == "09:30:00.000000-05:00");
    // Across a day, a month, a year and a leap day.
    CHECK(text(TDG_KIND_TIMESTAMP, withOffset(at(2024, 1, 1, 0, 30), 60)) ==
          "2023-12-31T23:30:00.000000");
    CHECK(text(TDG_KIND_TIMESTAMP, withOffset(at(2024, 2, 28, 23, 0), -90)) ==
          "2024-02-29T00:30:00.000000");
    CHECK(text(TDG_KIND_TIMESTAMP, withOffset(at(2023, 2, 28, 23, 0), -90)) ==
          "2023-03-01T00:30:00.000000");
    CHECK(text(TDG_KIND_TIMESTAMP, withOffset(at(1969, 12, 31, 23, 59), -1)) ==
          "1970-01-01T00:00:00.000000");
}

TEST_CASE("appendIsoFromFields writes long and negative TIME durations") {
    DateTimeFields duration = at(1970, 1, 1, 838, 59, 59);
    CHECK(text(TDG_KIND_TIME, duration) == "838:59:59.000000");
    duration.negative = true;
    duration.microseconds = 500000;
    CHECK(text(TDG_KIND_TIME, duration) == "-838:59:59.500000");
    CHECK(text(TDG_KIND_TIME, at(1970, 1, 1, 100, 0, 1)) == "100:00:01.000000");
    CHECK(text(TDG_KIND_TIME, at(1970, 1, 1, 1000)) == "1000:00:00.000000");
    CHECK(text(TDG_KIND_TIME, at(1970, 1, 1, 9999, 59, 59, 999999)) == "9999:59:59.999999");
    CHECK(text(TDG_KIND_TIME, at(1970, 1, 1, 10000)) == "rejected");
    CHECK(text(TDG_KIND_TIMESTAMP, at(2024, 1, 1, 24)) == "rejected");
}

TEST_CASE("appendIsoFromFields refuses fields out of range and leaves the output alone") {
    CHECK(text(TDG_KIND_DATE, at(2023, 2, 29)) == "rejected");
    CHECK(text(TDG_KIND_DATE, at(2024, 0, 1)) == "rejected");
    CHECK(text(TDG_KIND_DATE, at(2024, 1, 0)) == "rejected");
    CHECK(text(TDG_KIND_DATE, at(2024, 13, 1)) == "rejected");
    CHECK(text(TDG_KIND_DATE, at(2024, 4, 31)) == "rejected");
    CHECK(text(TDG_KIND_DATE, at(10000, 1, 1)) == "rejected");
    CHECK(text(TDG_KIND_DATE, at(-1, 1, 1)) == "rejected");
    CHECK(text(TDG_KIND_TIMESTAMP, at(2024, 1, 1, 1, 60)) == "rejected");
    CHECK(text(TDG_KIND_TIMESTAMP, at(2024, 1, 1, 1, 0, 60)) == "rejected");
    CHECK(text(TDG_KIND_TIMESTAMP, at(2024, 1, 1, 1, 0, 0, 1000000)) == "rejected");
    CHECK(text(TDG_KIND_TIMESTAMPTZ, withOffset(at(2024, 1, 1), 24 * 60)) == "rejected");
    CHECK(text(TDG_KIND_TIMESTAMP, withOffset(at(9999, 12, 31, 23, 0), -120)) == "rejected");
    CHECK(text(TDG_KIND_TEXT, at(2024, 1, 1)) == "rejected");
}

TEST_CASE("dateFromUnixDays counts proleptic Gregorian days either side of 1970") {
    struct Day {
        int64_t days;
        int year;
        unsigned month;
        unsigned day;
    };
    for (const Day& want :
         {Day{0, 1970, 1, 1}, Day{-1, 1969, 12, 31}, Day{10957, 2000, 1, 1},
          Day{11016, 2000, 2, 29}, Day{-25508, 1900, 3, 1}, Day{-719162, 1, 1, 1},
          Day{-719163, 0, 12, 31}, Day{2932896, 9999, 12, 31}, Day{2932897, 10000, 1, 1}}) {
        INFO(want.days);
        const DateTimeFields fields = dateFromUnixDays(want.days);
        CHECK(fields.year == want.year);
        CHECK(fields.month == want.month);
        CHECK(fields.day == want.day);
        CHECK(fields.hour == 0);
        CHECK_FALSE(fields.utcOffsetMinutes.has_value());
    }
}

TEST_CASE("appendIsoTimestamp writes a server's timestamp text in the ABI's form") {
    CHECK(iso("2024-02-29 13:14:15.5+00") == "2024-02-29T13:14:15.500000+00:00");
    CHECK(iso("2024-02-29 13:14:15") == "2024-02-29T13:14:15.000000");
    CHECK(iso("2024-02-29T13:14:15.1234567Z") == "2024-02-29T13:14:15.123456+00:00");
    CHECK(iso("1999-12-31 23:59:59.000001-03:30") == "1999-12-31T23:59:59.000001-03:30");
    CHECK(iso("1900-01-01 00:00:00+05:53:28") == "1900-01-01T00:00:00.000000+05:53:28");
    CHECK(iso("0001-01-01 00:00:00+00") == "0001-01-01T00:00:00.000000+00:00");
    CHECK(iso("9999-12-31T23:59:59.999999") == "9999-12-31T23:59:59.999999");
    CHECK(iso("2000-02-29 00:00:00") == "2000-02-29T00:00:00.000000");
}

TEST_CASE("appendIsoTimestamp refuses what is no finite timestamp of years 0000-9999") {
    for (const char* text : {"infinity",
                             "-infinity",
                             "2024-01-01 00:00:00 BC",
                             "0044-03-15 12:00:00+00 BC",
                             "9999-01-01 00:00:00 BC+00",
                             "12345-06-07 08:09:10-08",
                             "0000-00-00 00:00:00",
                             "2024-01-00 00:00:00",
                             "2024-02-30 00:00:00",
                             "2023-02-29 00:00:00",
                             "1900-02-29 00:00:00",
                             "2024-13-01 00:00:00",
                             "2024-01-01 25:00:00",
                             "2024-01-01 24:00:00",
                             "2024-01-01 12:60:00",
                             "2024-01-01 12:00:60",
                             "2024-01-01 12:00:00+24",
                             "2024-01-01 12:00:00+02:60",
                             "2024-01-01 12:00:00.",
                             "2024-01-01 12:00:00+02 x",
                             "2024/01/01 00:00:00",
                             "2024-01-01",
                             "2024-01-01 0:00",
                             "24-01-01 00:00:00",
                             "2024-1-01 00:00:00"}) {
        INFO(text);
        CHECK(iso(text) == "rejected");
    }
}

TEST_CASE("appendIsoTime refuses minutes and seconds of 60, and a time of day past 24:00") {
    auto time = [](std::string_view text) {
        std::string out = "<";
        if (!tapdiffgen::sdk::appendIsoTime(text, out)) return std::string("rejected");
        return out.substr(1);
    };
    CHECK(time("25:00:00") == "25:00:00.000000");  // a duration (MySQL TIME)
    CHECK(time("24:00:00+02") == "24:00:00.000000+02:00");
    CHECK(time("23:59:59.999999-15:59") == "23:59:59.999999-15:59");
    for (const char* text :
         {"25:61:00", "13:60:00", "13:14:60", "-838:60:59", "25:00:00+02", "24:00:01+02",
          "-01:00:00+02", "100:00:00+00", "13:14:15+24", "13:14:15+02:60", "13:14:15+02 BC"}) {
        INFO(text);
        CHECK(time(text) == "rejected");
    }
}

TEST_CASE("formatFloat writes a float's own shortest text, not its double's") {
    using tapdiffgen::sdk::formatDouble;
    using tapdiffgen::sdk::formatFloat;
    CHECK(formatFloat(0.1f) == "0.1");
    CHECK(formatDouble(0.1f) == "0.10000000149011612");
    CHECK(formatFloat(3.4028235e38f) == "3.4028235e+38");
    CHECK(formatFloat(-2.25f) == "-2.25");
    CHECK(formatFloat(1e-45f) == "1e-45");
    CHECK_FALSE(formatFloat(std::numeric_limits<float>::quiet_NaN()).has_value());
    CHECK_FALSE(formatFloat(-std::numeric_limits<float>::infinity()).has_value());
}

TEST_CASE("jsonNumberFromDecimal turns a client's spelling into a JSON number literal") {
    CHECK(jsonNumberFromDecimal(".5") == "0.5");
    CHECK(jsonNumberFromDecimal("+1") == "1");
    CHECK(jsonNumberFromDecimal("-.5") == "-0.5");
    CHECK(jsonNumberFromDecimal("1.") == "1");
    CHECK(jsonNumberFromDecimal("007.50") == "7.50");
    CHECK(jsonNumberFromDecimal("-000") == "-0");
    CHECK(jsonNumberFromDecimal("1.E+3") == "1E+3");
    CHECK(jsonNumberFromDecimal(".5e-7") == "0.5e-7");
    CHECK(jsonNumberFromDecimal("18446744073709551615") == "18446744073709551615");
    CHECK(jsonNumberFromDecimal("123.123456789") == "123.123456789");
    for (const char* number : {".5", "+1", "-.5", "1.", "007.50", "1.E+3"}) {
        CHECK(tapdiffgen::sdk::isJsonNumber(jsonNumberFromDecimal(number)));
    }
}

TEST_CASE("jsonNumberFromDecimal rejects what is not a number, naming the value") {
    for (const char* garbage : {"", "+", "-", ".", "-.", "NaN", "Infinity", "1,5", "0x10", " 1",
                                "1 ", "1e", "1e+", "1.2.3", "--1", "abc"}) {
        CAPTURE(garbage);
        CHECK_THROWS_AS(jsonNumberFromDecimal(garbage, "column 'price'"), DriverError);
    }
    try {
        jsonNumberFromDecimal("1,5", "column 'price'");
        FAIL("no error");
    } catch (const DriverError& error) {
        CHECK(error.status() == TDG_INVALID_DATA);
        CHECK(std::string(error.what()) == "column 'price': '1,5' is not a number");
    }
}

TEST_CASE("jsonSchemaForKind takes a format that adds to or replaces the kind's own") {
    CHECK(jsonSchemaForKind(TDG_KIND_TEXT, -1, "uuid") == R"({"type":"string","format":"uuid"})");
    CHECK(jsonSchemaForKind(TDG_KIND_DATE, -1, "uuid") == R"({"type":"string","format":"uuid"})");
    CHECK(jsonSchemaForKind(TDG_KIND_JSON, -1, "uri") == R"({"format":"uri"})");
    CHECK(jsonSchemaForKind(TDG_KIND_DECIMAL, 2, "") == jsonSchemaForKind(TDG_KIND_DECIMAL, 2));
    CHECK(jsonSchemaForKind(TDG_KIND_TIMESTAMPTZ, -1, "") ==
          R"({"type":"string","format":"date-time"})");
}

TEST_CASE("jsonSchemaForDecimal: multipleOf only where a 28-digit decimal context can check it") {
    using tapdiffgen::sdk::jsonSchemaForDecimal;
    CHECK(jsonSchemaForDecimal(12, 4) == R"({"type":"number","multipleOf":0.0001})");
    CHECK(jsonSchemaForDecimal(28, 10) == R"({"type":"number","multipleOf":0.0000000001})");
    CHECK(jsonSchemaForDecimal(10, 0) == R"({"type":"number","multipleOf":1})");
    CHECK(jsonSchemaForDecimal(29, 10) == R"({"type":"number"})");
    CHECK(jsonSchemaForDecimal(38, 10) == R"({"type":"number"})");
    CHECK(jsonSchemaForDecimal(-1, 4) == R"({"type":"number"})");
    CHECK(jsonSchemaForDecimal(12, -1) == R"({"type":"number"})");
}

TEST_CASE("a time without zone is a plain string, format time is for a time with its offset") {
    CHECK(jsonSchemaForKind(TDG_KIND_TIME) == R"({"type":"string"})");
    CHECK(jsonSchemaForKind(TDG_KIND_TIME, -1, "time") == R"({"type":"string","format":"time"})");
}

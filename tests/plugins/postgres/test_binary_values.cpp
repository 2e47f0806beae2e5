// The plugin's binary decoders against the server's own text of the same values: each row
// holds a value and its text (`v::text`, the type's output function), both read in binary
// format, so a decoder is right when it writes what the text path makes of that text.
#include <doctest/doctest.h>

#include <charconv>

#include "binary_values.hpp"
#include "pg_test_support.hpp"
#include "tap-diffgen/sdk/errors.hpp"
#include "tap-diffgen/sdk/values.hpp"

using namespace tapdiffgen;

namespace {

std::string_view cell(const PGresult* result, int row, int column) {
    return {PQgetvalue(result, row, column), static_cast<size_t>(PQgetlength(result, row, column))};
}

// Rows of (v, v::text) for `values`, a FROM item with one column v, in the plugin's session
// settings for time.
std::shared_ptr<PGresult> valuesAndTexts(const testing::DatabaseEnv& db,
                                         const std::string& values) {
    pgtest::RawSession session(db);
    session.exec("SET TimeZone = 'UTC'");
    session.exec("SET DateStyle = 'ISO, YMD'");
    auto result = session.queryBinary("SELECT v, v::text FROM " + values);
    REQUIRE(PQntuples(result.get()) > 0);
    return result;
}

}  // namespace

TEST_CASE("binary timestamptz values are written as the text path writes the server's text") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    // Edge values, then one every 36 days and some hours, minutes and microseconds from year 1
    // to 987: leap years, centuries, both sides of 1970 and 2000.
    auto result = valuesAndTexts(db, R"SQL((
        SELECT v::timestamptz FROM (VALUES ('infinity'), ('-infinity'),
            ('0044-03-15 12:00:00 BC'), ('0001-01-01 00:00:00'), ('1999-12-31 23:59:59.999999'),
            ('2000-01-01 00:00:00'), ('2000-01-01 00:00:00.000001'), ('1969-12-31 23:59:59.5'),
            ('2000-02-29 13:14:15.123'), ('1900-03-01 00:00:00'), ('2100-02-28 23:59:59'),
            ('9999-12-31 23:59:59.999999'), ('10000-01-01 00:00:00'),
            ('294276-12-31 23:59:59.999999')) t(v)
        UNION ALL
        SELECT '0001-01-01 00:00:00+00'::timestamptz
               + g * interval '36 days 1 hour 17 minutes 3.123457 seconds'
          FROM generate_series(0, 10000) g
        UNION ALL
        SELECT '2023-12-31 00:00:00+00'::timestamptz + g * interval '1 day 7 seconds'
          FROM generate_series(0, 800) g) s(v))SQL");
    for (int row = 0; row < PQntuples(result.get()); ++row) {
        std::string_view text = cell(result.get(), row, 1);
        INFO(text);
        std::string want = "<", out = "<";
        bool expected = sdk::appendIsoTimestamp(text, want);
        CHECK(postgres::appendBinaryTimestampTz(cell(result.get(), row, 0), out) == expected);
        CHECK(out == want);
    }
}

TEST_CASE("binary int8 values arrive as their text says") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    auto result =
        valuesAndTexts(db,
                       "(VALUES ('-9223372036854775808'::int8), ('9223372036854775807'::int8), "
                       "('-1'::int8), (0::int8), (4294967296::int8), (255::int8)) t(v)");
    for (int row = 0; row < PQntuples(result.get()); ++row) {
        std::string_view text = cell(result.get(), row, 1);
        INFO(text);
        int64_t want = 0;
        std::from_chars(text.data(), text.data() + text.size(), want);
        CHECK(postgres::binaryInt8(cell(result.get(), row, 0)) == want);
    }
}

TEST_CASE("binary values of another size are refused, not misread") {
    std::string out;
    CHECK_THROWS_AS(postgres::binaryInt8(std::string_view("\x01\x02\x03\x04", 4)),
                    sdk::DriverError);
    CHECK_THROWS_AS(postgres::appendBinaryTimestampTz("", out), sdk::DriverError);
    CHECK(out.empty());
}

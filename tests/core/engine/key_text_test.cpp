// The canonical key texts (dialect_abi.h, "Key texts"): what older triggers journalled reads
// as the same key as the row's cell, a value its column cannot hold is refused, and a
// tombstone's key is written as the row's cell is.
#include <doctest/doctest.h>

#include <string>

#include "keys/key_text.hpp"
#include "keys/row_key.hpp"

using tapdiffgen::core::appendKeyJson;
using tapdiffgen::core::canonicalCellText;
using tapdiffgen::core::canonicalKeyText;
using tapdiffgen::core::KeyColumn;
using tapdiffgen::core::KeyReadFailure;
using tapdiffgen::core::KeySpec;
using tapdiffgen::core::KeyTextFault;
using tapdiffgen::core::parseTableId;

namespace {

KeyColumn column(TdgValueKind kind, int scale = -1, std::string sqlType = "t") {
    return KeyColumn{"k", kind, false, std::move(sqlType), scale};
}

std::string canonical(std::string_view text, const KeyColumn& key) {
    auto out = canonicalKeyText(text, key);
    return out ? *out : "<none>";
}

KeyTextFault faultOf(std::string_view text, const KeyColumn& key) {
    KeyTextFault fault = KeyTextFault::Unreadable;
    CHECK_FALSE(canonicalKeyText(text, key, &fault).has_value());
    return fault;
}

TdgCell textCell(TdgValueKind kind, std::string_view text) {
    return TdgCell{kind, 0, 0, text.data(), text.size()};
}

}  // namespace

TEST_CASE("integer keys: digits without leading zeros") {
    const KeyColumn key = column(TDG_KIND_INT64);
    CHECK(canonical("007", key) == "7");
    CHECK(canonical(" -42 ", key) == "-42");
    CHECK(faultOf("4.0", key) == KeyTextFault::Unreadable);
    CHECK(faultOf("99999999999999999999", key) == KeyTextFault::CannotHold);
}

TEST_CASE("decimal keys keep the column's scale and unscaled ones trim it") {
    const KeyColumn scaled = column(TDG_KIND_DECIMAL, 3, "numeric(12,3)");
    CHECK(canonical("-1.5", scaled) == "-1.500");
    CHECK(canonical("-1.500", scaled) == "-1.500");
    CHECK(canonical("-0.000", scaled) == "0.000");
    CHECK(canonical("12.34500", scaled) == "12.345");
    CHECK(faultOf("12.3456", scaled) == KeyTextFault::CannotHold);
    CHECK(faultOf("1e5", scaled) == KeyTextFault::Unreadable);
    const KeyColumn unscaled = column(TDG_KIND_DECIMAL);
    CHECK(canonical("2.50", unscaled) == "2.5");
    CHECK(canonical("18446744073709551615", unscaled) == "18446744073709551615");
    CHECK(canonical("0010", unscaled) == "10");
}

TEST_CASE("bytes keys are lowercase hex and PostgreSQL's \\x form reads too") {
    const KeyColumn key = column(TDG_KIND_BYTES);
    CHECK(canonical("\\x00FF", key) == "00ff");
    CHECK(canonical("00ff", key) == "00ff");
    CHECK(faultOf("A", key) == KeyTextFault::Unreadable);
    const std::string raw("\x00\xff", 2);
    CHECK(canonicalCellText(textCell(TDG_KIND_BYTES, raw), key) == "00ff");
}

TEST_CASE("timestamps: six fraction digits, a T, within the column's fractional digits") {
    const KeyColumn micro = column(TDG_KIND_TIMESTAMP, 6);
    CHECK(canonical("2024-01-01 10:00:00.123456", micro) == "2024-01-01T10:00:00.123456");
    CHECK(canonical("2024-01-01T10:00:00.12", micro) == "2024-01-01T10:00:00.120000");
    CHECK(canonical("2024-01-01T10:00:00", micro) == "2024-01-01T10:00:00.000000");
    CHECK(canonical("2024-01-01T10:00:00.000100", micro) == "2024-01-01T10:00:00.000100");
    const KeyColumn seconds = column(TDG_KIND_TIMESTAMP, 0, "datetime");
    CHECK(faultOf("2024-01-01 10:00:00.5", seconds) == KeyTextFault::CannotHold);
    CHECK(canonical("2024-01-01 10:00:00.000000", seconds) == "2024-01-01T10:00:00.000000");
    CHECK(faultOf("2024-02-30 10:00:00", micro) == KeyTextFault::CannotHold);
    CHECK(faultOf("2024-01-01T10:00:00+02:00", micro) == KeyTextFault::CannotHold);
    CHECK(faultOf("yesterday", micro) == KeyTextFault::Unreadable);
    CHECK(canonicalCellText(textCell(TDG_KIND_TIMESTAMP, "2024-01-01T10:00:00.120000"), micro) ==
          "2024-01-01T10:00:00.120000");
}

TEST_CASE("timestamptz keys are their UTC instant") {
    const KeyColumn key = column(TDG_KIND_TIMESTAMPTZ, 6);
    CHECK(canonical("2024-01-01T01:30:00.5+02:00", key) == "2023-12-31T23:30:00.500000+00:00");
    CHECK(canonical("2024-01-01 10:00:00", key) == "2024-01-01T10:00:00.000000+00:00");
    CHECK(canonical("2024-02-28T23:00:00-05", key) == "2024-02-29T04:00:00.000000+00:00");
}

TEST_CASE("times, dates and booleans") {
    CHECK(canonical("10:00:00.5", column(TDG_KIND_TIME, 6)) == "10:00:00.500000");
    CHECK(canonical("-838:59:59", column(TDG_KIND_TIME, 0)) == "-838:59:59.000000");
    CHECK(canonical("2024-01-31", column(TDG_KIND_DATE)) == "2024-01-31");
    CHECK(canonical("t", column(TDG_KIND_BOOL)) == "true");
    CHECK(canonical("0", column(TDG_KIND_BOOL)) == "false");
}

TEST_CASE("a composite key reads booleans and names the column whose value is wrong") {
    KeySpec key{{column(TDG_KIND_DECIMAL, 3, "numeric(12,3)"), column(TDG_KIND_BOOL)}};
    key.columns[0].name = "code";
    key.columns[1].name = "flag";
    KeyReadFailure failure;
    auto parsed = parseTableId("[-1.5, true]", key, failure);
    REQUIRE(parsed);
    CHECK(parsed->canonical() == "[-1.500,true]");
    CHECK_FALSE(parseTableId("[12.3456, true]", key, failure));
    CHECK(failure.describe("[12.3456, true]", key) ==
          "journals key '[12.3456, true]' whose value '12.3456' for column 'code' "
          "(numeric(12,3)), which that column cannot hold");
}

TEST_CASE("a tombstone writes its key as a record writes the column's cells") {
    std::string out;
    appendKeyJson(out, TDG_KIND_TIMESTAMP, "2024-01-01T10:00:00.000000");
    CHECK(out == "\"2024-01-01T10:00:00.000000+00:00\"");
    out.clear();
    appendKeyJson(out, TDG_KIND_DECIMAL, "-1.500");
    CHECK(out == "-1.500");
    out.clear();
    appendKeyJson(out, TDG_KIND_BOOL, "true");
    CHECK(out == "true");
}

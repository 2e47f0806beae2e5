// The helpers a driver's key codec binds canonical key texts with (sdk/key_text.hpp).
#include <doctest/doctest.h>

#include "tap-diffgen/sdk/key_text.hpp"

using namespace tapdiffgen::sdk;

TEST_CASE("a bytes key text is its bytes and anything but hex is refused") {
    std::string bytes;
    REQUIRE(bytesOfKeyText("00ff10", bytes));
    CHECK(bytes == std::string("\x00\xff\x10", 3));
    REQUIRE(bytesOfKeyText("", bytes));
    CHECK(bytes.empty());
    CHECK_FALSE(bytesOfKeyText("0", bytes));
    CHECK_FALSE(bytesOfKeyText("\\x00", bytes));
    CHECK_FALSE(bytesOfKeyText("zz", bytes));
}

TEST_CASE("a timestamptz key text's UTC clock and a type's fractional digits") {
    CHECK(utcClockOfKeyText("2024-01-01T10:00:00.000000+00:00") == "2024-01-01T10:00:00.000000");
    CHECK(utcClockOfKeyText("2024-01-01T10:00:00.000000") == "2024-01-01T10:00:00.000000");
    CHECK(fractionDigitsOfType("datetime(3)", 0) == 3);
    CHECK(fractionDigitsOfType("timestamp(0) without time zone", 6) == 0);
    CHECK(fractionDigitsOfType("datetime", 0) == 0);
    CHECK(fractionDigitsOfType("time", 6) == 6);
}

TEST_CASE("only JSON documents cannot be keys by kind") {
    CHECK(keySupportOfKind(TDG_KIND_JSON) == TDG_KEY_SUPPORT_NO);
    CHECK(keySupportOfKind(TDG_KIND_BYTES) == TDG_KEY_SUPPORT_YES);
    CHECK(keySupportOfKind(TDG_KIND_TIMESTAMPTZ) == TDG_KEY_SUPPORT_YES);
}

// sdk::appendIsoTime, the TIME text form shared by the dialect drivers.
#include <doctest/doctest.h>

#include "tap-diffgen/sdk/time_text.hpp"

namespace {

std::string iso(std::string_view text) {
    std::string out = "<";
    if (!tapdiffgen::sdk::appendIsoTime(text, out)) return out == "<" ? "rejected" : "touched";
    return out.substr(1);
}

}  // namespace

TEST_CASE("appendIsoTime pads fractions and normalises offsets") {
    CHECK(iso("13:14:15") == "13:14:15.000000");
    CHECK(iso("13:14:15.5") == "13:14:15.500000");
    CHECK(iso("13:14:15.1234567") == "13:14:15.123456");
    CHECK(iso("13:14:15.5+02") == "13:14:15.500000+02:00");
    CHECK(iso("13:14:15-03:30") == "13:14:15.000000-03:30");
    CHECK(iso("13:14:15+05:53:28") == "13:14:15.000000+05:53:28");
    CHECK(iso("13:14:15Z") == "13:14:15.000000+00:00");
    CHECK(iso("24:00:00") == "24:00:00.000000");
}

TEST_CASE("appendIsoTime keeps long and negative hours") {
    CHECK(iso("838:59:59") == "838:59:59.000000");
    CHECK(iso("-838:59:59.5") == "-838:59:59.500000");
    CHECK(iso("-00:00:01") == "-00:00:01.000000");
}

TEST_CASE("appendIsoTime rejects what is not a time, leaving the output alone") {
    for (const char* text : {"", "1:2:3", "13:14", "13:14:15.", "13:14:15+2", "13:14:15 PM",
                             "ab:cd:ef", "13:14:15+02:0", "infinity"}) {
        INFO(text);
        CHECK(iso(text) == "rejected");
    }
}

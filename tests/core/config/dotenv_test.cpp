// The .env syntax python-dotenv accepts.
#include <doctest/doctest.h>

#include "config/dotenv.hpp"

using tapdiffgen::core::parseDotenv;

namespace {

using Values = std::vector<std::pair<std::string, std::string>>;

}  // namespace

TEST_CASE("dotenv: plain, exported, quoted and commented statements") {
    const auto parsed = parseDotenv(
        "# a comment\n"
        "\n"
        "A=plain value  # trailing comment\n"
        "export B = spaced\n"
        "C='single # not a comment \\' quote'\n"
        "D=\"double\\ttab \\\"quoted\\\" \\n newline \\x\"\n"
        "E=hash#inside\n"
        "F=\n"
        "G='multi\n"
        "line'\n"
        "BARE\n"
        "A=later\r\n");
    CHECK(parsed.values == Values{{"A", "plain value"},
                                  {"B", "spaced"},
                                  {"C", "single # not a comment ' quote"},
                                  {"D", "double\ttab \"quoted\" \n newline \\x"},
                                  {"E", "hash#inside"},
                                  {"F", ""},
                                  {"G", "multi\nline"},
                                  {"A", "later"}});
    CHECK(parsed.badLines.empty());
}

TEST_CASE("dotenv: statements that cannot be parsed are reported by line") {
    const auto parsed = parseDotenv("OK=1\n=x\nQ='a' junk\nR=\"open\nS=2\n");
    CHECK(parsed.values == Values{{"OK", "1"}});
    CHECK(parsed.badLines == std::vector<int>{2, 3, 4});
}

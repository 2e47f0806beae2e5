// The hand-written JSON rendering of the hot path.
#include <doctest/doctest.h>

#include "singer/cell_json.hpp"
#include "singer/json_text.hpp"

using namespace tapdiffgen::core;

namespace {
std::string json(std::string_view text) {
    std::string out;
    appendJsonString(out, text);
    return out;
}
TdgCell cell(TdgValueKind kind, std::string_view text) {
    return TdgCell{kind, 0, 0, text.data(), text.size()};
}
std::string render(const TdgCell& value) {
    std::string out;
    appendCellJson(out, value);
    return out;
}
}  // namespace

TEST_CASE("strings are escaped, control characters included") {
    CHECK(json("plain") == R"("plain")");
    CHECK(json("a\"b\\c") == R"("a\"b\\c")");
    CHECK(json(std::string("\n\t\r\b\f\x01\x1f", 7)) == R"("\n\t\r\b\f\u0001\u001f")");
    CHECK(json(std::string("nul\0byte", 8)) == R"("nul\u0000byte")");
}

TEST_CASE("valid UTF-8 passes through, invalid bytes become U+FFFD") {
    CHECK(json("caf\xC3\xA9 \xF0\x9F\x98\x80") == "\"caf\xC3\xA9 \xF0\x9F\x98\x80\"");
    CHECK(json("bad\xFFx") == "\"bad\xEF\xBF\xBDx\"");
    CHECK(json("\xC0\xAF") == "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");                  // overlong
    CHECK(json("\xED\xA0\x80") == "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"");  // surrogate
    CHECK(json("cut\xE2\x82") == "\"cut\xEF\xBF\xBD\xEF\xBF\xBD\"");            // truncated
}

TEST_CASE("a byte to escape is found wherever it stands in a long string") {
    // Strings are scanned sixteen bytes at a time: every position of every block, the blocks'
    // edges and the tail after the last whole block.
    struct Special {
        std::string bytes;
        std::string written;
    };
    const Special specials[] = {
        {"\"", "\\\""},           {"\\", "\\\\"},   {std::string(1, '\0'), "\\u0000"},
        {"\x1f", "\\u001f"},      {"\n", "\\n"},    {"\xC3\xA9", "\xC3\xA9"},
        {"\xFF", "\xEF\xBF\xBD"}, {"\x7f", "\x7f"}, {"\xE2\x80\xA8", "\\u2028"}};
    for (size_t length = 1; length <= 50; ++length) {
        for (size_t at = 0; at < length; ++at) {
            for (const Special& special : specials) {
                INFO("length " << length << " at " << at);
                const std::string before(at, 'a'), after(length - at - 1, '~');
                CHECK(json(before + special.bytes + after) ==
                      "\"" + before + special.written + after + "\"");
            }
        }
    }
}

// Valid JSON, but Python's str.splitlines() breaks a line at each of them: a Singer reader that
// splits stdout so would cut the message in two.
TEST_CASE("U+0085, U+2028 and U+2029 are escaped, their neighbours are not") {
    CHECK(json("a\xC2\x85"
               "b") == R"("a\u0085b")");
    CHECK(json("a\xE2\x80\xA8"
               "b\xE2\x80\xA9"
               "c") == R"("a\u2028b\u2029c")");
    // U+0084, U+2027, U+202A and U+00C5 are no line breaks.
    CHECK(json("\xC2\x84\xE2\x80\xA7\xE2\x80\xAA\xC3\x85") ==
          "\"\xC2\x84\xE2\x80\xA7\xE2\x80\xAA\xC3\x85\"");
    // A cut sequence stays invalid UTF-8.
    CHECK(json("\xE2\x80") == "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");
    CHECK(render(cell(TDG_KIND_JSON,
                      "{\"k\": \"a\xE2\x80\xA8"
                      "b\xC2\x85\"}\xE2\x80")) == "{\"k\": \"a\\u2028b\\u0085\"}\xE2\x80");
    CHECK(render(cell(TDG_KIND_JSON, "[\"\xE2\x80\xA9\"]")) == R"(["\u2029"])");
}

TEST_CASE("cells render by kind") {
    CHECK(render(TdgCell{TDG_KIND_INT64, 0, INT64_MIN, nullptr, 0}) == "-9223372036854775808");
    CHECK(render(TdgCell{TDG_KIND_BOOL, 0, 1, nullptr, 0}) == "true");
    CHECK(render(cell(TDG_KIND_DECIMAL, "18446744073709551615")) == "18446744073709551615");
    CHECK(render(cell(TDG_KIND_JSON, R"({"a":[1,null]})")) == R"({"a":[1,null]})");
    CHECK(render(cell(TDG_KIND_BYTES, std::string_view("\x00\xff\x10", 3))) == R"("00ff10")");
    CHECK(render(cell(TDG_KIND_TIMESTAMP, "2024-02-29T13:14:15.123456")) ==
          R"("2024-02-29T13:14:15.123456+00:00")");
    CHECK(render(cell(TDG_KIND_TIMESTAMPTZ, "2024-02-29T13:14:15.000000+05:30")) ==
          R"("2024-02-29T13:14:15.000000+05:30")");
    CHECK(render(cell(TDG_KIND_DATE, "2024-02-29")) == R"("2024-02-29")");
}

TEST_CASE("a JSON document written over several lines stays on the message's line") {
    CHECK(render(cell(TDG_KIND_JSON, "{\n  \"a\": [1,\r\n 2.50],\n\t\"b\": \"x\\ny\"\n}")) ==
          "{   \"a\": [1,   2.50], \t\"b\": \"x\\ny\" }");
}

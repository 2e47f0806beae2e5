// sdk::longestKeyRun: which keys a fetch may read as one range of an integer key.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tap-diffgen/sdk/key_run.hpp"

using tapdiffgen::sdk::kMinKeyRun;
using tapdiffgen::sdk::longestKeyRun;

namespace {

// Texts that outlive the views handed to longestKeyRun.
struct Keys {
    std::vector<std::string> texts;
    std::vector<std::string_view> views() const { return {texts.begin(), texts.end()}; }
    Keys& range(int64_t first, int64_t last) {
        for (int64_t k = first;; ++k) {  // no k <= last: last may be INT64_MAX
            texts.push_back(std::to_string(k));
            if (k == last) return *this;
        }
    }
    Keys& add(std::string text) {
        texts.push_back(std::move(text));
        return *this;
    }
};

}  // namespace

TEST_CASE("the longest run of consecutive keys is taken, the rest stays in order") {
    Keys keys;
    keys.add("900").range(100, 139).add("5").range(200, 299).add("-3");
    auto run = longestKeyRun(keys.views());
    REQUIRE(run.has_value());
    CHECK(run->first == 200);
    CHECK(run->last == 299);
    std::vector<std::string_view> outside(keys.texts.begin(), keys.texts.begin() + 42);
    outside.push_back("-3");
    CHECK(run->outside == outside);
}

TEST_CASE("keys given in any order and twice still make their run") {
    Keys keys;
    for (int64_t k = 40; k >= 1; --k) keys.add(std::to_string(k)).add(std::to_string(k));
    auto run = longestKeyRun(keys.views());
    REQUIRE(run.has_value());
    CHECK(run->first == 1);
    CHECK(run->last == 40);
    CHECK(run->outside.empty());
}

TEST_CASE("a run shorter than the minimum, or with a gap, is no run") {
    Keys shortRun;
    shortRun.range(1, kMinKeyRun - 1).add("1000");
    CHECK_FALSE(longestKeyRun(shortRun.views()).has_value());
    Keys gapped;
    gapped.range(1, 20).range(22, 41);  // 40 keys, but no 32 of them consecutive
    CHECK_FALSE(longestKeyRun(gapped.views()).has_value());
    Keys exact;
    exact.range(1, kMinKeyRun);
    CHECK(longestKeyRun(exact.views()).has_value());
}

TEST_CASE("any key that is not a canonical integer leaves every key in the list") {
    for (const char* odd : {"abc", "042", "+42", "4.2", "", " 42", "99999999999999999999"}) {
        CAPTURE(odd);
        Keys keys;
        keys.range(1, 64).add(odd);
        CHECK_FALSE(longestKeyRun(keys.views()).has_value());
    }
}

TEST_CASE("runs reach the ends of the 64-bit range") {
    Keys top;
    top.range(INT64_MAX - 40, INT64_MAX);
    auto run = longestKeyRun(top.views());
    REQUIRE(run.has_value());
    CHECK(run->last == INT64_MAX);
    Keys bottom;
    bottom.range(INT64_MIN, INT64_MIN + 40);
    run = longestKeyRun(bottom.views());
    REQUIRE(run.has_value());
    CHECK(run->first == INT64_MIN);
}

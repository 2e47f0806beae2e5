// The STATE document: shape, compatibility, and states that must be refused.
#include <doctest/doctest.h>

#include "state/tap_state.hpp"

using tapdiffgen::core::StateError;
using tapdiffgen::core::TapState;

TEST_CASE("a bookmark round-trips and foreign streams are carried through") {
    auto state = TapState::parse(
        R"({"bookmarks":{"a":{"replication_key":"diffgen_id","replication_key_value":7},)"
        R"("gone":{"replication_key_value":3,"extra":[1,2]}}})",
        "s.json", {"a"});
    CHECK(state.bookmark("a") == 7);
    state.setBookmark("a", 9);
    CHECK(state.toJson() ==
          R"({"bookmarks":{"a":{"replication_key":"diffgen_id","replication_key_value":9},)"
          R"("gone":{"extra":[1,2],"replication_key_value":3}}})");
}

TEST_CASE("an old state without replication_key is accepted, a whole STATE message too") {
    auto old = TapState::parse(R"({"bookmarks":{"a":{"replication_key_value":4}}})", "s", {"a"});
    CHECK(old.bookmark("a") == 4);
    auto message = TapState::parse(
        R"({"type":"STATE","value":{"bookmarks":{"a":{"replication_key_value":5}}}})", "s", {"a"});
    CHECK(message.bookmark("a") == 5);
    CHECK(TapState::parse("{}", "s", {"a"}).empty());
}

TEST_CASE("a state from another tap or broken JSON is refused with one line") {
    CHECK_THROWS_WITH_AS(
        TapState::parse(R"({"bookmarks":{"a":{"replication_key":"updated_at",)"
                        R"("replication_key_value":"2024-01-01"}}})",
                        "s.json", {"a"}),
        "state 's.json': bookmark of stream 'a' has replication_key 'updated_at', not "
        "'diffgen_id': this state was written by another tap",
        StateError);
    CHECK_THROWS_AS(
        TapState::parse(R"({"bookmarks":{"a":{"replication_key_value":"x"}}})", "s", {"a"}),
        StateError);
    CHECK_THROWS_AS(TapState::parse("{nope", "s", {"a"}), StateError);
    CHECK_THROWS_AS(TapState::load("/nonexistent/state.json", {"a"}), StateError);
}

TEST_CASE("a state of the wrong shape is a StateError, never another exception") {
    for (const char* text :
         {"[]", "1", "\"x\"", R"({"bookmarks":[]})",
          R"({"bookmarks":{"a":{"replication_key_value":99999999999999999999}}})",
          R"({"type":"STATE","value":3})"}) {
        CAPTURE(text);
        CHECK_THROWS_AS(TapState::parse(text, "s", {"a"}), StateError);
    }
}

TEST_CASE("a snapshot's position and another tool's members survive a round trip") {
    auto state = TapState::parse(
        R"({"bookmarks":{"a":{"replication_key":"diffgen_id","replication_key_value":7,)"
        R"("note":{"by":"ops"},"snapshot":{"since_diffgen_id":5,"after_key":["4711","A-7"],)"
        R"("rows":120}}}})",
        "s.json", {"a"});
    REQUIRE(state.snapshot("a").has_value());
    CHECK(state.snapshot("a")->sinceId == 5);
    CHECK(state.snapshot("a")->afterKey == std::vector<std::string>{"4711", "A-7"});
    CHECK(state.snapshot("a")->rows == 120);
    CHECK(state.toJson() ==
          R"({"bookmarks":{"a":{"replication_key":"diffgen_id","replication_key_value":7,)"
          R"("snapshot":{"since_diffgen_id":5,"after_key":["4711","A-7"],"rows":120},)"
          R"("note":{"by":"ops"}}}})");
    state.clearSnapshot("a");
    CHECK(state.toJson() ==
          R"({"bookmarks":{"a":{"replication_key":"diffgen_id","replication_key_value":7,)"
          R"("note":{"by":"ops"}}}})");
    state.setSnapshot("a", {9, {}, 0});
    CHECK(state.toJson().find(R"("snapshot":{"since_diffgen_id":9,"rows":0})") !=
          std::string::npos);
}

TEST_CASE("a snapshot position of the wrong shape is refused with one line") {
    CHECK_THROWS_WITH_AS(
        TapState::parse(R"({"bookmarks":{"a":{"replication_key_value":7,"snapshot":{}}}})", "s",
                        {"a"}),
        "state 's': snapshot of stream 'a' has no since_diffgen_id", StateError);
    CHECK_THROWS_WITH_AS(TapState::parse(R"({"bookmarks":{"a":{"replication_key_value":7,)"
                                         R"("snapshot":{"since_diffgen_id":5,"after_key":[1]}}}})",
                                         "s", {"a"}),
                         "state 's': snapshot of stream 'a': after_key holds a non-string",
                         StateError);
    CHECK_THROWS_AS(TapState::parse(R"({"bookmarks":{"a":{"replication_key_value":7,)"
                                    R"("snapshot":"x"}}})",
                                    "s", {"a"}),
                    StateError);
}

// sdk::longestKeyRun: which keys a fetch may read as one range of an integer key.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tap-diffgen/sdk/key_run.hpp"
#include "tap-diffgen/sdk/row_batch_builder.hpp"

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

// ---- denseKeyRuns: runs with gaps, as ranges whose unasked rows the batch drops ----

using tapdiffgen::sdk::denseKeyRuns;
using tapdiffgen::sdk::KeyRange;
using tapdiffgen::sdk::kMaxKeyRuns;
using tapdiffgen::sdk::kMaxRunGap;
using tapdiffgen::sdk::kMinRunDensity;

namespace {

// Every `step`-th integer from `first`, `count` of them.
Keys& spaced(Keys& keys, int64_t first, int64_t count, int64_t step) {
    for (int64_t i = 0; i < count; ++i) keys.add(std::to_string(first + i * step));
    return keys;
}

// Three of every four integers from `first` on, `span` integers: first + 1, first + 5, ...
// are left out. Dense enough for a range (kMinRunDensity).
Keys& threeOfFour(Keys& keys, int64_t first, int64_t span) {
    for (int64_t i = 0; i < span; ++i) {
        if (i % 4 != 1) keys.add(std::to_string(first + i));
    }
    return keys;
}

}  // namespace

TEST_CASE("a run with gaps is one range, and only its keys are asked") {
    static_assert(0.75 >= kMinRunDensity);
    Keys keys;
    keys.add("7");
    threeOfFour(keys, 1000, 200).add("5000").add("1002");  // 1002 twice
    auto runs = denseKeyRuns(keys.views());
    REQUIRE(runs.has_value());
    CHECK(runs->ranges == std::vector<KeyRange>{{1000, 1199}});
    CHECK(runs->outside == std::vector<std::string_view>{"7", "5000"});
    CHECK(runs->asked(1000));
    CHECK(runs->asked(1199));
    CHECK_FALSE(runs->asked(1001));
    CHECK_FALSE(runs->asked(1197));
    // Outside every range: read by the key list, which returns only asked rows.
    CHECK(runs->asked(999));
    CHECK(runs->asked(1200));
    CHECK(runs->asked(7));
    CHECK(runs->rowsAtMost() == 2 + 200);
}

TEST_CASE("a run sparser than the minimum density stays in the list") {
    const auto step = static_cast<int64_t>(1 / kMinRunDensity) + 1;  // just below the density
    REQUIRE(step <= kMaxRunGap);
    Keys sparse;
    spaced(sparse, 1, 200, step);
    CHECK_FALSE(denseKeyRuns(sparse.views()).has_value());
    Keys dense;
    spaced(dense, 1, 200, static_cast<int64_t>(1 / kMinRunDensity));
    CHECK(denseKeyRuns(dense.views()).has_value());
}

TEST_CASE("a gap of kMaxRunGap integers splits the keys into two ranges") {
    Keys keys;
    keys.range(1, 40).range(40 + kMaxRunGap + 1, 40 + kMaxRunGap + 40);
    auto runs = denseKeyRuns(keys.views());
    REQUIRE(runs.has_value());
    CHECK(runs->ranges ==
          std::vector<KeyRange>{{1, 40}, {40 + kMaxRunGap + 1, 40 + kMaxRunGap + 40}});
    CHECK(runs->outside.empty());
    // Between the ranges no range reads a row: only the key list could, with asked keys.
    CHECK(runs->asked(41));
    CHECK(runs->asked(40 + kMaxRunGap));
    Keys closer;
    closer.range(1, 40).range(40 + kMaxRunGap, 40 + kMaxRunGap + 39);
    runs = denseKeyRuns(closer.views());
    REQUIRE(runs.has_value());
    CHECK(runs->ranges == std::vector<KeyRange>{{1, 40 + kMaxRunGap + 39}});
}

TEST_CASE("short runs, odd keys and too few keys keep the lookup path") {
    Keys shortRuns;
    for (int64_t start = 0; start < 10; ++start) shortRuns.range(start * 1000, start * 1000 + 20);
    CHECK_FALSE(denseKeyRuns(shortRuns.views()).has_value());
    for (const char* odd : {"abc", "042", "+42", "4.2", "", "99999999999999999999"}) {
        CAPTURE(odd);
        Keys keys;
        keys.range(1, 64).add(odd);
        CHECK_FALSE(denseKeyRuns(keys.views()).has_value());
    }
    Keys few;
    few.range(1, kMinKeyRun - 1);
    CHECK_FALSE(denseKeyRuns(few.views()).has_value());
}

TEST_CASE("beyond kMaxKeyRuns runs, the runs with the most keys are taken") {
    Keys keys;
    const int64_t count = static_cast<int64_t>(kMaxKeyRuns) + 3;
    for (int64_t r = 0; r < count; ++r) {
        // run r has 32 + r keys, runs 1,000 apart
        keys.range(r * 1000, r * 1000 + static_cast<int64_t>(kMinKeyRun) - 1 + r);
    }
    auto runs = denseKeyRuns(keys.views());
    REQUIRE(runs.has_value());
    REQUIRE(runs->ranges.size() == kMaxKeyRuns);
    CHECK(runs->ranges.front().first == 3000);  // the three shortest are left to the list
    CHECK(runs->outside.size() == 3 * kMinKeyRun + 0 + 1 + 2);
    for (size_t r = 1; r < runs->ranges.size(); ++r) {
        CHECK(runs->ranges[r - 1].last < runs->ranges[r].first);
    }
}

TEST_CASE("dense runs reach the ends of the 64-bit range") {
    Keys keys;
    threeOfFour(keys, INT64_MAX - 79, 80);
    threeOfFour(keys, INT64_MIN, 80);
    auto runs = denseKeyRuns(keys.views());
    REQUIRE(runs.has_value());
    CHECK(runs->ranges ==
          std::vector<KeyRange>{{INT64_MIN, INT64_MIN + 79}, {INT64_MAX - 79, INT64_MAX}});
    CHECK(runs->asked(INT64_MAX));
    CHECK_FALSE(runs->asked(INT64_MAX - 2));
    CHECK(runs->asked(INT64_MIN));
    CHECK_FALSE(runs->asked(INT64_MIN + 1));
}

// ---- RowBatchBuilder::dropRowsNotAsked: the rows a range read without being asked ----

namespace {

struct ReceivedRows {
    std::vector<std::string> keys;   // column 0, as text
    std::vector<std::string> notes;  // column 1
};

int32_t receive(void* context, const TdgRowBatch* batch) {
    auto* received = static_cast<ReceivedRows*>(context);
    for (int64_t r = 0; r < batch->num_rows; ++r) {
        const TdgCell& key = batch->cells[r * batch->num_columns];
        const TdgCell& note = batch->cells[r * batch->num_columns + 1];
        received->keys.push_back(key.kind == TDG_KIND_INT64
                                     ? std::to_string(key.i64)
                                     : std::string(key.data, static_cast<size_t>(key.size)));
        received->notes.emplace_back(note.data, static_cast<size_t>(note.size));
    }
    return 0;
}

}  // namespace

TEST_CASE("a batch drops the rows a range read without their key being asked") {
    Keys keys;
    threeOfFour(keys, 1000, 200).add("5");
    auto runs = denseKeyRuns(keys.views());
    REQUIRE(runs.has_value());
    ReceivedRows received;
    // Small batches: rows are dropped across flushes too.
    tapdiffgen::sdk::RowBatchBuilder rows(receive, &received, 2, 7);
    {
        const tapdiffgen::sdk::DroppingRowsNotAsked filtered(rows, &*runs, 0);
        rows.addInt64(5);  // from the key list
        rows.addText(TDG_KIND_TEXT, "five");
        rows.endRow();
        for (int64_t key = 999; key <= 1200; ++key) {  // the range's span and one past each end
            if (key % 3 == 0) {
                rows.addText(TDG_KIND_DECIMAL, std::to_string(key));
            } else {
                rows.addInt64(key);
            }
            rows.addText(TDG_KIND_TEXT, "note " + std::to_string(key));
            rows.endRow();
        }
    }
    rows.addInt64(1001);  // the filter ended with its scope
    rows.addText(TDG_KIND_TEXT, "after");
    rows.endRow();
    rows.finish();

    std::vector<std::string> expectedKeys{"5", "999"};
    for (int64_t key = 1000; key <= 1199; ++key) {
        if ((key - 1000) % 4 != 1) expectedKeys.push_back(std::to_string(key));
    }
    expectedKeys.insert(expectedKeys.end(), {"1200", "1001"});
    CHECK(received.keys == expectedKeys);
    REQUIRE(received.notes.size() == expectedKeys.size());
    CHECK(received.notes.front() == "five");
    CHECK(received.notes[1] == "note 999");
    CHECK(received.notes[2] == "note 1000");
    CHECK(received.notes[3] == "note 1002");
    CHECK(received.notes.back() == "after");
    CHECK(rows.rowsDropped() == 50);
}

#include "tap-diffgen/sdk/key_run.hpp"

#include <algorithm>
#include <charconv>

namespace tapdiffgen::sdk {
namespace {

// The integer a key's text stands for, when it is written the way to_chars writes it.
std::optional<int64_t> canonicalInteger(std::string_view text) {
    int64_t value = 0;
    const char* end = text.data() + text.size();
    auto parsed = std::from_chars(text.data(), end, value);
    if (parsed.ec != std::errc() || parsed.ptr != end) return std::nullopt;
    char again[24];
    auto written = std::to_chars(again, again + sizeof again, value);
    if (std::string_view(again, static_cast<size_t>(written.ptr - again)) != text) {
        return std::nullopt;
    }
    return value;
}

// Every key as its integer (keys[i] stands for the i-th), nullopt when one is not an integer.
std::optional<std::vector<int64_t>> integersOf(const std::vector<std::string_view>& keys) {
    std::vector<int64_t> values;
    values.reserve(keys.size());
    for (std::string_view key : keys) {
        std::optional<int64_t> value = canonicalInteger(key);
        if (!value) return std::nullopt;
        values.push_back(*value);
    }
    return values;
}

std::vector<int64_t> sortedDistinct(std::vector<int64_t> values) {
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    return values;
}

// Integers from `first` to `last`, saturated: a span of the whole 64-bit range does not fit.
uint64_t spanOf(int64_t first, int64_t last) {
    return static_cast<uint64_t>(last) - static_cast<uint64_t>(first) + 1;
}

// A stretch of sorted keys [begin, end) taken as one range.
struct Stretch {
    size_t begin = 0;
    size_t end = 0;
    size_t keys() const { return end - begin; }
};

// The stretches of `sorted` between gaps of kMaxRunGap integers or more that are long and dense
// enough to read as ranges.
std::vector<Stretch> denseStretches(const std::vector<int64_t>& sorted) {
    std::vector<Stretch> dense;
    for (size_t begin = 0; begin < sorted.size();) {
        size_t end = begin + 1;
        while (end < sorted.size() && spanOf(sorted[end - 1], sorted[end]) - 2 < kMaxRunGap) {
            ++end;
        }
        const Stretch stretch{begin, end};
        const uint64_t span = spanOf(sorted[begin], sorted[end - 1]);
        if (stretch.keys() >= kMinKeyRun &&
            static_cast<double>(stretch.keys()) >= kMinRunDensity * static_cast<double>(span)) {
            dense.push_back(stretch);
        }
        begin = end;
    }
    if (dense.size() > kMaxKeyRuns) {
        std::stable_sort(dense.begin(), dense.end(),
                         [](const Stretch& a, const Stretch& b) { return a.keys() > b.keys(); });
        dense.resize(kMaxKeyRuns);
        std::sort(dense.begin(), dense.end(),
                  [](const Stretch& a, const Stretch& b) { return a.begin < b.begin; });
    }
    return dense;
}

// The range of `ranges` that holds `key`, or ranges.size().
size_t rangeHolding(const std::vector<KeyRange>& ranges, int64_t key) {
    auto after = std::upper_bound(ranges.begin(), ranges.end(), key,
                                  [](int64_t k, const KeyRange& range) { return k < range.first; });
    if (after == ranges.begin()) return ranges.size();
    const size_t at = static_cast<size_t>(after - ranges.begin()) - 1;
    return key <= ranges[at].last ? at : ranges.size();
}

}  // namespace

bool KeyRuns::asked(int64_t key) const {
    const size_t range = rangeHolding(ranges, key);
    if (range == ranges.size()) return true;
    const size_t bit = bitStart_[range] +
                       (static_cast<uint64_t>(key) - static_cast<uint64_t>(ranges[range].first));
    return (askedBits_[bit / 64] >> (bit % 64) & 1u) != 0;
}

size_t KeyRuns::rowsAtMost() const {
    size_t rows = outside.size();
    for (const KeyRange& range : ranges)
        rows += static_cast<size_t>(spanOf(range.first, range.last));
    return rows;
}

std::optional<KeyRuns> denseKeyRuns(const std::vector<std::string_view>& keys) {
    if (keys.size() < kMinKeyRun) return std::nullopt;
    std::optional<std::vector<int64_t>> inOrder = integersOf(keys);
    if (!inOrder) return std::nullopt;
    const std::vector<int64_t> sorted = sortedDistinct(*inOrder);
    const std::vector<Stretch> stretches = denseStretches(sorted);
    if (stretches.empty()) return std::nullopt;

    KeyRuns runs;
    size_t bits = 0;
    for (const Stretch& stretch : stretches) {
        runs.ranges.push_back({sorted[stretch.begin], sorted[stretch.end - 1]});
        runs.bitStart_.push_back(bits);
        // At most kMaxRunGap integers between keys: the span fits in memory.
        bits += static_cast<size_t>(spanOf(sorted[stretch.begin], sorted[stretch.end - 1]));
    }
    runs.askedBits_.assign((bits + 63) / 64, 0);
    for (size_t r = 0; r < stretches.size(); ++r) {
        for (size_t i = stretches[r].begin; i < stretches[r].end; ++i) {
            const size_t bit = runs.bitStart_[r] + (static_cast<uint64_t>(sorted[i]) -
                                                    static_cast<uint64_t>(runs.ranges[r].first));
            runs.askedBits_[bit / 64] |= uint64_t{1} << (bit % 64);
        }
    }
    for (size_t i = 0; i < keys.size(); ++i) {
        if (rangeHolding(runs.ranges, (*inOrder)[i]) == runs.ranges.size()) {
            runs.outside.push_back(keys[i]);
        }
    }
    return runs;
}

std::optional<KeyRun> longestKeyRun(const std::vector<std::string_view>& keys) {
    if (keys.size() < kMinKeyRun) return std::nullopt;
    std::optional<std::vector<int64_t>> values = integersOf(keys);
    if (!values) return std::nullopt;
    const std::vector<int64_t>& inOrder = *values;  // keys[i] stands for inOrder[i]
    const std::vector<int64_t> sorted = sortedDistinct(inOrder);

    size_t bestStart = 0, bestLength = 0;
    for (size_t start = 0; start < sorted.size();) {
        size_t end = start + 1;
        while (end < sorted.size() && sorted[end] == sorted[end - 1] + 1) ++end;
        if (end - start > bestLength) bestStart = start, bestLength = end - start;
        start = end;
    }
    if (bestLength < kMinKeyRun) return std::nullopt;

    KeyRun run;
    run.first = sorted[bestStart];
    run.last = sorted[bestStart + bestLength - 1];
    for (size_t i = 0; i < keys.size(); ++i) {
        if (inOrder[i] < run.first || inOrder[i] > run.last) run.outside.push_back(keys[i]);
    }
    return run;
}

}  // namespace tapdiffgen::sdk

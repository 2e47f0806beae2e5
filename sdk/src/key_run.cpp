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

}  // namespace

std::optional<KeyRun> longestKeyRun(const std::vector<std::string_view>& keys) {
    if (keys.size() < kMinKeyRun) return std::nullopt;
    std::vector<int64_t> inOrder;  // keys[i] stands for inOrder[i]
    inOrder.reserve(keys.size());
    for (std::string_view key : keys) {
        std::optional<int64_t> value = canonicalInteger(key);
        if (!value) return std::nullopt;
        inOrder.push_back(*value);
    }
    std::vector<int64_t> sorted = inOrder;
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());

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

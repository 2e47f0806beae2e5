// A fetch's dense runs of integer keys, to read as ranges of the key. A page that inserted rows
// asks for keys n, n+1, ..., n+k of each table it inserted into, and a page that updated most
// rows of a table asks for most keys of a stretch of it: one range of the primary key costs the
// server one index descent and a walk along the leaf pages, where k separate keys cost k
// descents. A range over a run that is not every integer also returns rows nobody asked for;
// RowBatchBuilder::dropRowsNotAsked drops them before they reach the host, so the fetch returns
// exactly the rows its keys name, each once, as the key list would.
//
// The thresholds, measured with tests/bench/key_ranges.sh (docs/performance.md, "Dense key
// runs as ranges"): 2,000 keys of a table of 10 mixed columns, read by key list and by the one
// range of their span with every row of it sent to the client, which throws the unasked ones
// away. The range costs about the same at every density per row of its span (the rows are
// the cost), the list the same at every density per key, so the range wins above a density
// where the two meet: about 0.5 on PostgreSQL 15 (range ÷ list 0.48 at density 1, 0.64 at
// 0.75, 1.00 at 0.5, 1.92 at 0.25) and between 0.5 and 0.75 on MariaDB 10.11 (0.65, 0.94,
// 0.99, 1.96); a second run in finer steps gave 0.48 and 0.82 at 0.7, 0.54 and 1.19 at 0.6.
// A run is taken from a density of 0.75 on, where both servers gain, and from 32 keys on: at
// 32 and 128 keys a read is a fraction of a millisecond either way (the statement's own cost),
// and the range is one more condition of the statement to plan. Where they meet, a key of the
// list costs about two rows of a range: a gap of 8 unasked rows costs about 4 keys, more than
// the descent of a second range, so it ends a run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace tapdiffgen::sdk {

struct KeyRange {
    int64_t first = 0;
    int64_t last = 0;
    friend bool operator==(const KeyRange& a, const KeyRange& b) {
        return a.first == b.first && a.last == b.last;
    }
};

/// A fetch's keys as dense ranges and the keys outside them.
class KeyRuns {
public:
    /// Ascending and disjoint; each holds at least kMinKeyRun distinct keys and at least
    /// kMinRunDensity of the integers from its first to its last.
    std::vector<KeyRange> ranges;
    /// The keys in no range, in their given order and as often as given (texts of `keys`).
    std::vector<std::string_view> outside;

    /// False for a key that lies in a range without being one of the keys: the row of such a
    /// key was read only because the range covers it. True for every other key.
    bool asked(int64_t key) const;
    /// The most rows a read of the ranges and the outside keys returns (every integer of each
    /// range one row): what a driver that buffers a result sizes it by.
    size_t rowsAtMost() const;

private:
    friend std::optional<KeyRuns> denseKeyRuns(const std::vector<std::string_view>& keys);
    /// Bit (key - ranges[r].first) of range r, from bit bitStart_[r] on.
    std::vector<uint64_t> askedBits_;
    std::vector<size_t> bitStart_;
};

/// Runs with fewer distinct keys than this are left to the key list.
constexpr size_t kMinKeyRun = 32;
/// Runs whose keys are fewer than this share of the integers they span are left to the key list.
constexpr double kMinRunDensity = 0.75;
/// A stretch of this many integers without a key ends a run: a second range costs less than the
/// rows the gap would return.
constexpr int64_t kMaxRunGap = 8;
/// At most this many ranges in one fetch (those with the most keys), so a statement stays small
/// to plan and its shape is one of few.
constexpr size_t kMaxKeyRuns = 64;

/// The dense runs among `keys` (runs of distinct keys with no gap of kMaxRunGap integers or more,
/// at least kMinKeyRun keys and kMinRunDensity dense); nullopt when there is none, or when a key
/// is not an integer in canonical decimal form ("42", "-7"; not "+42", "042" or "4.2"), which a
/// range of integers could not stand for.
std::optional<KeyRuns> denseKeyRuns(const std::vector<std::string_view>& keys);

/// The run of strictly consecutive keys.
struct KeyRun {
    /// The run: every integer from first to last is one of the keys.
    int64_t first = 0;
    int64_t last = 0;
    /// The keys outside the run, in their given order (texts of `keys`).
    std::vector<std::string_view> outside;
};

/// The longest run of at least kMinKeyRun consecutive integers among `keys`; nullopt as for
/// denseKeyRuns. Repeated keys count once. Superseded by denseKeyRuns, which also reads runs
/// with gaps as ranges; kept for the drivers built against SDK 0.2.
std::optional<KeyRun> longestKeyRun(const std::vector<std::string_view>& keys);

}  // namespace tapdiffgen::sdk

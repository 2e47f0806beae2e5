// A fetch's longest run of consecutive integer keys, to read as one range of the key. A page
// that inserted rows asks for keys n, n+1, ..., n+k of each table it inserted into: one range
// of the primary key costs the server one index descent and a walk along the leaf pages,
// where k separate keys cost k descents (about a tenth of a fetch's time on PostgreSQL and
// MariaDB with 10 columns of mixed types). Only keys that are all present in the run are taken
// into it, so the range returns exactly the rows the keys name and no others.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace tapdiffgen::sdk {

struct KeyRun {
    /// The run: every integer from first to last is one of the keys.
    int64_t first = 0;
    int64_t last = 0;
    /// The keys outside the run, in their given order (texts of `keys`).
    std::vector<std::string_view> outside;
};

/// Runs shorter than this are left to the key list: a range is a second condition to plan.
constexpr size_t kMinKeyRun = 32;

/// The longest run of at least kMinKeyRun consecutive integers among `keys`; nullopt when
/// there is none, or when a key is not an integer in canonical decimal form ("42", "-7"; not
/// "+42", "042" or "4.2"), which a range of integers could not stand for. Repeated keys count
/// once.
std::optional<KeyRun> longestKeyRun(const std::vector<std::string_view>& keys);

}  // namespace tapdiffgen::sdk

#include "replay/sessions/repull_shares.hpp"

#include <algorithm>
#include <cmath>

namespace tapdiffgen::core {

namespace {

// Smaller chunks than this cost a statement each for too little work.
constexpr size_t kMinSharedChunk = 256;

}  // namespace

std::vector<size_t> shareBoundaries(const std::vector<size_t>& chunkKeys,
                                    const std::vector<bool>& mayStartAt, size_t shares) {
    std::vector<size_t> keysBefore(chunkKeys.size() + 1, 0);
    for (size_t i = 0; i < chunkKeys.size(); ++i) keysBefore[i + 1] = keysBefore[i] + chunkKeys[i];
    const size_t total = keysBefore.back();
    std::vector<size_t> boundaries;
    size_t previous = 0;
    for (size_t share = 1; share < shares; ++share) {
        const double ideal =
            static_cast<double>(total) * static_cast<double>(share) / static_cast<double>(shares);
        size_t best = 0;
        double bestDistance = 0;
        for (size_t i = previous + 1; i < chunkKeys.size(); ++i) {
            if (!mayStartAt[i]) continue;
            const double distance = std::abs(static_cast<double>(keysBefore[i]) - ideal);
            if (best == 0 || distance < bestDistance) {
                best = i;
                bestDistance = distance;
            }
        }
        if (best == 0) break;
        boundaries.push_back(best);
        previous = best;
    }
    return boundaries;
}

size_t sharedChunkSize(size_t keysPerFetch, size_t pageKeys, size_t sessions) {
    if (sessions < 2) return keysPerFetch;
    const size_t share = (pageKeys + sessions - 1) / sessions;
    return std::min(keysPerFetch, std::max(kMinSharedChunk, share));
}

}  // namespace tapdiffgen::core

// How a page's re-pulls are shared out between sessions: contiguous runs of its chunks of keys,
// in order, of about as many keys each, so that the sessions finish together and the output
// keeps the order of one session.
#pragma once

#include <cstddef>
#include <vector>

namespace tapdiffgen::core {

/// Where each share after the first starts, given each chunk's number of keys and whether a
/// share may start at it (not inside a stream whose records only one thread may render).
/// Increasing chunk indexes, none at 0 or past the end: at most shares - 1 of them, fewer when
/// the chunks do not allow more.
std::vector<size_t> shareBoundaries(const std::vector<size_t>& chunkKeys,
                                    const std::vector<bool>& mayStartAt, size_t shares);

/// The largest chunk for a page of `pageKeys` keys shared between `sessions` sessions: a
/// stream's keys are cut into such chunks so that one large stream is shared too.
size_t sharedChunkSize(size_t keysPerFetch, size_t pageKeys, size_t sessions);

}  // namespace tapdiffgen::core

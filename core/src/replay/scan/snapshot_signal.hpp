// A request to snapshot one table again, journalled in the log itself: a diffgen row whose
// tablename is kSnapshotSignal and whose table_id is the table's journal name (what its
// triggers write as tablename), e.g. for table items:
//
//     INSERT INTO diffgen (tablename, table_id, op) VALUES ('tap-diffgen:snapshot', 'items', 'i');
//
// Every page's read asks for these rows too: one more name in the statement's list, on the
// index that serves it, and nothing more per poll. A signal reaches its stream in log order,
// in the page that carries the stream past it, so a batch run and a following run take it up
// alike; a run stopped before its STATE passed the signal reads it again. The stream then
// keeps replaying from where it stands while its table is read again in chunks
// (the run's snapshot runner). The op only has to pass the journal's CHECK (i, u or d);
// the shipped triggers never write this table name.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "plugin/dialect_connection.hpp"
#include "replay/model/stream_state.hpp"
#include "replay/scan/stream_set.hpp"

namespace tapdiffgen::core {

inline constexpr std::string_view kSnapshotSignal = "tap-diffgen:snapshot";

struct SnapshotSignal {
    size_t stream;  // index in the run's stream list
    int64_t id;     // the signal's diffgen id
};

/// The signals in `page` for the streams of `readFor`, in log order, but those whose id is in
/// `seenIds` (sorted; a range read again for its late commits). Signals for tables of other
/// streams are left to the reads for those streams.
std::vector<SnapshotSignal> snapshotSignals(const EventPage& page,
                                            const std::vector<const StreamState*>& streams,
                                            const StreamSet& readFor,
                                            const std::vector<int64_t>& seenIds = {});

}  // namespace tapdiffgen::core

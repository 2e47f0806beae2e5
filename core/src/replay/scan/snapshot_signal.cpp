#include "replay/scan/snapshot_signal.hpp"

#include <algorithm>

namespace tapdiffgen::core {

std::vector<SnapshotSignal> snapshotSignals(const EventPage& page,
                                            const std::vector<const StreamState*>& streams,
                                            const StreamSet& readFor,
                                            const std::vector<int64_t>& seenIds) {
    std::vector<SnapshotSignal> signals;
    for (const TdgEvent& event : page) {
        if (event.table_name == nullptr || std::string_view(event.table_name) != kSnapshotSignal ||
            event.table_id == nullptr ||
            std::binary_search(seenIds.begin(), seenIds.end(), event.id)) {
            continue;
        }
        const std::string_view table(event.table_id, static_cast<size_t>(event.table_id_size));
        for (size_t i : readFor.indices()) {
            if (streams[i]->journalName == table) signals.push_back({i, event.id});
        }
    }
    return signals;
}

}  // namespace tapdiffgen::core

// Where a selected stream stands in a sync: what a scan of the log needs of it. The stream's
// identity is copied from its definition when the run starts (a change of its table's columns
// leaves it as it is); how its rows are fetched and written is its output's
// (replay/output/stream_channel.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "catalog/stream_definition.hpp"

namespace tapdiffgen::core {

struct StreamState {
    StreamState(size_t index, const StreamDefinition& selected)
        : index(index),
          name(selected.name),
          tableName(selected.tableName),
          journalName(selected.journalName),
          startFrom(selected.startFrom) {}

    /// Its index in the run's stream list (StreamSet, the observers' calls).
    size_t index;
    /// The stream's name, its table as configured, and the name its journal rows carry.
    std::string name;
    std::string tableName;
    std::string journalName;
    StartFrom startFrom;
    /// Every diffgen id <= cursor has been read for this stream in this run (or before it).
    int64_t cursor = 0;
    /// Whether the stream takes part in the log scan (false while it awaits its snapshot, and
    /// for the rest of a run that had to postpone it).
    bool replaying = true;
    /// Stopped for the rest of the run before an event whose key it cannot read: its cursor
    /// stays before that event, and its bookmark with it.
    bool stopped = false;
    /// Its table is to be read before it replays: no bookmark, and start_from says so.
    bool awaitsSnapshot = false;
};

}  // namespace tapdiffgen::core

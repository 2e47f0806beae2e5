// A table snapshotted while writers change it, the tap interrupted again and again: killed
// with SIGKILL at random points and, where there is a server, its sessions ended by the
// server. Each run starts from the STATE a target kept of the run before and resumes the
// snapshot after its last chunk; at the end the replica equals the table. The same steps for
// every dialect; what differs (the writers' sessions, reading the table, ending sessions) is
// given by the caller.
//
// The table: id INTEGER PRIMARY KEY, v INTEGER NOT NULL, note (text), ids 1..rows.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace tapdiffgen::testing {

struct InterruptedSnapshot {
    /// The snapshotted stream, and its table as the writers' SQL names it.
    std::string stream;
    std::string table;
    /// Rows the table starts with, and the page_size (the most rows of a chunk) of the runs.
    int rows = 60000;
    int chunkRows = 200;
    /// Interruptions to make before the last run, which goes to its end.
    int interruptions = 12;
    /// After the output an interruption waits for, a random wait of up to this many
    /// milliseconds more, for the kill to land anywhere in a chunk.
    int killDelayMs = 40;
    /// A writer of its own: runs one statement.
    std::function<std::function<void(const std::string&)>()> openWriter;
    /// The table's rows now: id → v.
    std::function<std::map<int64_t, int64_t>()> sourceRows;
    /// The tap's arguments, with the state file `statePath` (none when empty).
    std::function<std::vector<std::string>(const std::string& statePath)> tapArguments;
    /// Ends the server sessions of the tap process `pid`, returning how many; unset where
    /// there is no server (SIGKILL only).
    std::function<int(int pid)> endSessions;
};

/// Runs the interruptions and the last run, and checks with doctest: every resumed run
/// continues after the key its STATE kept; at most one chunk of rows is written again per
/// interruption; at the end the replica equals the table.
void snapshotThroughInterruptions(const InterruptedSnapshot& setup);

}  // namespace tapdiffgen::testing

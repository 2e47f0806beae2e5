// The journal's health as a dialect plugin reports it (ABI revision 5): what the log still
// holds (journal_bounds) and how the catalog feeds it (inspect_journal), in the engine's types.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "plugin/table_ref.hpp"
#include "tap-diffgen/dialect_abi.h"

namespace tapdiffgen::core {

/// Why a bookmark is no longer covered by the log: the events after it are gone.
struct LostCoverage {
    enum class Cause {
        /// The oldest event left is past bookmark + 1: a retention job deleted events not yet
        /// read (evidence: the oldest id left).
        Pruned,
        /// The id source hands out ids at or below the bookmark again (evidence: its next id):
        /// TRUNCATE ... RESTART IDENTITY, a restore from an older backup.
        IdsRestarted,
        /// The newest event is below the bookmark and the id source cannot be read (evidence:
        /// the newest id).
        LogBehind,
    };
    Cause cause;
    int64_t bookmark;
    int64_t evidence;

    /// What was lost, in one line naming the stream.
    std::string describe(const std::string& stream) const;
};

/// See TdgJournalBounds. oldestId and newestId mean nothing when the log is empty.
struct JournalBounds {
    bool empty = true;
    int64_t oldestId = 0;
    int64_t newestId = 0;
    /// The id the log's id source hands out next, when the plugin may see it.
    std::optional<int64_t> nextId;

    /// Whether every event after `bookmark` (every id <= bookmark was read) is still in the
    /// log; nullopt when it is, else why not. A bookmark is always an id the log once held
    /// (or 0, which nothing can lose), so a log that still holds its event or anything older
    /// has lost nothing after it: retention deletes the oldest events first. Ids after the
    /// bookmark that were never committed (rolled back) do not count as lost unless the
    /// bookmark's own event was deleted too; see "Pruning the journal" in docs/journal.md.
    std::optional<LostCoverage> lostAfter(int64_t bookmark) const;
};

/// See TdgBypassingForeignKey.
struct BypassingForeignKey {
    std::string constraintName;
    TableRef parent;
    std::string actions;
};

/// See TdgJournalTrigger.
struct JournalTrigger {
    std::string name;
    std::string events;
    std::optional<std::string> journalName;
};

/// See TdgTableJournal.
struct TableJournal {
    std::vector<TableRef> partitions;
    std::vector<BypassingForeignKey> bypassingForeignKeys;
    std::vector<JournalTrigger> triggers;
};

/// See TdgJournalInspection; tables[i] answers for the i-th table asked about.
struct JournalInspection {
    std::optional<std::string> idSource;
    /// 0 when unknown.
    int64_t idCache = 0;
    std::optional<std::string> horizonProblem;
    std::vector<TableJournal> tables;
};

/// Copies what a plugin published (each entry as far as its struct_size covers).
JournalBounds journalBoundsOf(const TdgJournalBounds& bounds);
JournalInspection journalInspectionOf(const TdgJournalInspection& inspection);

}  // namespace tapdiffgen::core

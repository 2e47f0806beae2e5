// The journal's health as a dialect plugin reports it (ABI revision 5): what the log still
// holds (journal_bounds) and how the catalog feeds it (inspect_journal), in the engine's types.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/table_ref.hpp"
#include "tap-diffgen/dialect_abi.h"

namespace tapdiffgen::core {

/// Why a bookmark is no longer covered by the log: the events after it are gone.
struct LostCoverage {
    enum class Cause {
        /// The oldest event left is past bookmark + 1, in a log without a prune record: the
        /// ids between are taken for events a retention job deleted before they were read
        /// (evidence: the oldest id left).
        Pruned,
        /// The log's prune record says events past the bookmark were deleted (evidence: the
        /// highest id deleted; oldestLeft: the oldest event left, if any).
        PrunedRecorded,
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
    std::optional<int64_t> oldestLeft;

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
    /// The prune record's highest deleted id (0 when none yet), when the log has a record
    /// (ABI 6; packaging/diffgen/ installs it). With it, a prune is known instead of guessed
    /// from a gap below the oldest event.
    std::optional<int64_t> highestPrunedId;

    /// Whether every event after `bookmark` (every id <= bookmark was read) is still in the
    /// log; nullopt when it is, else why not. docs/journal.md ("Every situation, and what the
    /// tap does") is the specification:
    /// - reset: the id source hands out ids at or below the bookmark again (or, when it cannot
    ///   be read, the newest event is below the bookmark);
    /// - with a current prune record: pruned exactly when an id above the bookmark was deleted;
    /// - without one (or with one from before the ids restarted: highest pruned id >= next id),
    ///   the oldest event left past bookmark + 1 is taken for a prune.
    std::optional<LostCoverage> lostAfter(int64_t bookmark) const;

    /// The prune record, when there is one and it belongs to the ids the source hands out now
    /// (a record at or above the next id was written before the ids restarted).
    std::optional<int64_t> currentPruneRecord() const;
    /// A prune record at or above the next id (next id unknown: above the newest event left):
    /// kept from before the log's ids restarted.
    bool pruneRecordPredatesReset() const;
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
    /// The columns it journals into table_id, in order, when the plugin can tell (ABI 6).
    std::optional<std::vector<std::string>> keyColumns;
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

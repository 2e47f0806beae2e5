// What a driver tells the engine about the journal's health (ABI revision 5): the log's bounds
// (TdgDriver.journal_bounds) and what the catalog says of how the configured tables reach it
// (TdgDriver.inspect_journal). The export trampolines turn these into the C structures.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tap-diffgen/sdk/types.hpp"

namespace tapdiffgen::sdk {

/// See TdgJournalBounds. oldestId and newestId are read only when the log is not empty.
struct JournalBounds {
    bool empty = true;
    int64_t oldestId = 0;
    int64_t newestId = 0;
    /// The id the log's id source hands out next, when this session may see it.
    std::optional<int64_t> nextId;
    /// The prune record's highest deleted id (0 when none yet), when the log has a record this
    /// session may read (since 6; see TdgJournalBounds.highest_pruned_id).
    std::optional<int64_t> highestPrunedId;
};

/// See TdgJournalRequest.
struct JournalRequest {
    TableName diffgen;
    std::vector<TableName> tables;
    bool includeTriggers = false;
};

/// See TdgBypassingForeignKey.
struct BypassingForeignKey {
    std::string constraintName;
    TableName parent;
    /// "ON DELETE CASCADE", "ON DELETE SET NULL, ON UPDATE CASCADE".
    std::string actions;
};

/// See TdgJournalTrigger.
struct JournalTrigger {
    std::string name;
    /// "INSERT, UPDATE, DELETE".
    std::string events;
    /// What it writes into diffgen.tablename, when the catalog tells.
    std::optional<std::string> journalName;
    /// The columns it journals into diffgen.table_id, in order, when its definition tells
    /// (since 6).
    std::optional<std::vector<std::string>> keyColumns;
};

/// See TdgTableJournal.
struct TableJournal {
    std::vector<TableName> partitions;
    std::vector<BypassingForeignKey> bypassingForeignKeys;
    std::vector<JournalTrigger> triggers;
};

/// See TdgJournalInspection. tables[i] answers for request table i.
struct JournalInspection {
    std::optional<std::string> idSource;
    /// Ids one session takes from idSource at a time; 1 when every id is taken at insert time,
    /// 0 when unknown.
    int64_t idCache = 0;
    /// Why check_horizon cannot prove ranges final, as one line naming the fix.
    std::optional<std::string> horizonProblem;
    std::vector<TableJournal> tables;
};

}  // namespace tapdiffgen::sdk

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

/// See TdgJournalBounds. oldestId and newestId mean nothing when the log is empty.
struct JournalBounds {
    bool empty = true;
    int64_t oldestId = 0;
    int64_t newestId = 0;
    /// The id the log's id source hands out next, when the plugin may see it.
    std::optional<int64_t> nextId;
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

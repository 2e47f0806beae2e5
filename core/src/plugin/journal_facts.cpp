#include "plugin/journal_facts.hpp"

#include <cstddef>

namespace tapdiffgen::core {
namespace {

std::string textOf(const char* text) { return text != nullptr ? text : ""; }

std::optional<std::string> optionalTextOf(const char* text) {
    if (text == nullptr) return std::nullopt;
    return std::string(text);
}

TableRef tableOf(const TdgTableRef& ref) { return TableRef{textOf(ref.schema), textOf(ref.name)}; }

// Every field read here came with revision 5, so an entry smaller than that size (none a
// correct plugin publishes) is passed over rather than read beyond what it filled.
template <typename Entry>
bool fromRevision5(const Entry* entry, size_t size5) {
    return entry != nullptr && entry->struct_size >= size5;
}

// The trigger's key columns when its plugin filled them (revision 6) and could tell.
std::optional<std::vector<std::string>> keyColumnsOf(const TdgJournalTrigger& trigger) {
    if (trigger.struct_size < TDG_JOURNAL_TRIGGER_SIZE_6 || trigger.key_columns == nullptr ||
        trigger.num_key_columns <= 0) {
        return std::nullopt;
    }
    std::vector<std::string> columns;
    for (int32_t i = 0; i < trigger.num_key_columns; ++i) {
        columns.push_back(textOf(trigger.key_columns[i]));
    }
    return columns;
}

TableJournal tableJournalOf(const TdgTableJournal& table) {
    TableJournal journal;
    if (table.partitions != nullptr) {
        for (int32_t i = 0; i < table.num_partitions; ++i) {
            journal.partitions.push_back(tableOf(table.partitions[i]));
        }
    }
    if (table.bypassing_foreign_keys != nullptr) {
        for (int32_t i = 0; i < table.num_bypassing_foreign_keys; ++i) {
            const TdgBypassingForeignKey* key = table.bypassing_foreign_keys[i];
            if (!fromRevision5(key, TDG_BYPASSING_FOREIGN_KEY_SIZE_5)) continue;
            journal.bypassingForeignKeys.push_back(BypassingForeignKey{
                textOf(key->constraint_name), tableOf(key->parent), textOf(key->actions)});
        }
    }
    if (table.triggers != nullptr) {
        for (int32_t i = 0; i < table.num_triggers; ++i) {
            const TdgJournalTrigger* trigger = table.triggers[i];
            if (!fromRevision5(trigger, TDG_JOURNAL_TRIGGER_SIZE_5)) continue;
            JournalTrigger& found = journal.triggers.emplace_back(
                JournalTrigger{textOf(trigger->name), textOf(trigger->events),
                               optionalTextOf(trigger->journal_name), std::nullopt});
            found.keyColumns = keyColumnsOf(*trigger);
        }
    }
    return journal;
}

}  // namespace

std::optional<int64_t> JournalBounds::currentPruneRecord() const {
    if (pruneRecordPredatesReset()) return std::nullopt;
    return highestPrunedId;
}

// Every id deleted in the present numbering was handed out before the next one. Where the next
// id cannot be read (MySQL 8), a record past the newest event left is taken for an older
// numbering's: deleting the newest events but not the older ones is no retention.
bool JournalBounds::pruneRecordPredatesReset() const {
    if (!highestPrunedId) return false;
    if (nextId) return *highestPrunedId >= *nextId;
    return !empty && *highestPrunedId > newestId;
}

std::optional<LostCoverage> JournalBounds::lostAfter(int64_t bookmark) const {
    using Cause = LostCoverage::Cause;
    if (bookmark <= 0) return std::nullopt;
    // The id source tells a reset best: an emptied log whose ids go on (forward too, as after
    // a setval past the head), or newest events deleted by hand, lose nothing, since later
    // changes still get ids past the bookmark.
    if (nextId) {
        if (*nextId <= bookmark) return LostCoverage{Cause::IdsRestarted, bookmark, *nextId, {}};
    } else if (!empty && newestId < bookmark) {
        return LostCoverage{Cause::LogBehind, bookmark, newestId, {}};
    }
    const std::optional<int64_t> oldestLeft = empty ? std::nullopt : std::optional(oldestId);
    // A prune record knows what was deleted: ids past the bookmark that are missing and were
    // never deleted were never committed (rolled back, or lost to a crash).
    if (const std::optional<int64_t> pruned = currentPruneRecord()) {
        if (*pruned <= bookmark) return std::nullopt;
        return LostCoverage{Cause::PrunedRecorded, bookmark, *pruned, oldestLeft};
    }
    if (!empty && oldestId > bookmark + 1) {
        return LostCoverage{Cause::Pruned, bookmark, oldestId, oldestLeft};
    }
    return std::nullopt;
}

std::string LostCoverage::describe(const std::string& stream) const {
    const std::string head = "stream '" + stream + "': diffgen ";
    const std::string at = std::to_string(bookmark);
    const std::string reset = " (TRUNCATE ... RESTART IDENTITY, or a restore from an older backup)";
    const std::string pruned = " were pruned before they were read";
    switch (cause) {
        case Cause::PrunedRecorded:
            if (!oldestLeft || *oldestLeft != evidence + 1) {
                return head + "no longer covers its bookmark " + at +
                       ": its prune record says events up to id " + std::to_string(evidence) +
                       " were deleted, so the changes journalled at ids " +
                       std::to_string(bookmark + 1) + " to " + std::to_string(evidence) + pruned;
            }
            [[fallthrough]];  // the deleted ids end right below the oldest event left
        case Cause::Pruned: {
            const int64_t oldest = oldestLeft.value_or(evidence);
            return head + "no longer covers its bookmark " + at + ": the oldest event left is id " +
                   std::to_string(oldest) + ", so the changes journalled at ids " +
                   std::to_string(bookmark + 1) + " to " + std::to_string(oldest - 1) + pruned;
        }
        case Cause::IdsRestarted:
            return head + "was reset below its bookmark " + at + ": its next id is " +
                   std::to_string(evidence) + reset;
        case Cause::LogBehind:
            break;
    }
    return head + "was reset below its bookmark " + at + ": its newest event is id " +
           std::to_string(evidence) + reset;
}

JournalBounds journalBoundsOf(const TdgJournalBounds& bounds) {
    JournalBounds out;
    out.empty = bounds.is_empty != 0;
    out.oldestId = out.empty ? 0 : bounds.oldest_id;
    out.newestId = out.empty ? 0 : bounds.newest_id;
    if (bounds.has_next_id != 0) out.nextId = bounds.next_id;
    if (bounds.struct_size >= TDG_JOURNAL_BOUNDS_SIZE_6 && bounds.has_prune_record != 0) {
        out.highestPrunedId = bounds.highest_pruned_id;
    }
    return out;
}

JournalInspection journalInspectionOf(const TdgJournalInspection& inspection) {
    JournalInspection out;
    out.idSource = optionalTextOf(inspection.id_source);
    out.idCache = inspection.id_cache;
    out.horizonProblem = optionalTextOf(inspection.horizon_problem);
    if (inspection.tables == nullptr) return out;
    for (int32_t i = 0; i < inspection.num_tables; ++i) {
        const TdgTableJournal* table = inspection.tables[i];
        out.tables.push_back(fromRevision5(table, TDG_TABLE_JOURNAL_SIZE_5) ? tableJournalOf(*table)
                                                                            : TableJournal{});
    }
    return out;
}

}  // namespace tapdiffgen::core

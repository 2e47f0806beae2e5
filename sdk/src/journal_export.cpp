// The journal facts of ABI revisions 5 and 6 between their C structures and the SDK's types, for
// the trampolines in export.hpp.
#include <cstring>
#include <deque>
#include <memory>

#include "tap-diffgen/sdk/export.hpp"

namespace tapdiffgen::sdk::detail {
namespace {

// Everything a published TdgJournalInspection points into, freed by its release. Deques keep
// each element where it was put while more are added.
struct OwnedInspection {
    JournalInspection facts;
    std::deque<std::vector<TdgTableRef>> partitionLists;
    std::deque<TdgBypassingForeignKey> foreignKeys;
    std::deque<TdgJournalTrigger> triggers;
    std::deque<std::vector<const char*>> keyColumnLists;
    std::deque<std::vector<const TdgBypassingForeignKey*>> foreignKeyLists;
    std::deque<std::vector<const TdgJournalTrigger*>> triggerLists;
    std::deque<TdgTableJournal> tables;
    std::vector<const TdgTableJournal*> tableList;
};

const char* optionalText(const std::optional<std::string>& text) {
    return text ? text->c_str() : nullptr;
}

TdgTableRef refOf(const TableName& table) {
    return TdgTableRef{table.schema ? table.schema->c_str() : nullptr, table.name.c_str()};
}

const TdgTableJournal* publishTable(OwnedInspection& owned, const TableJournal& table) {
    TdgTableJournal& out = owned.tables.emplace_back();
    std::memset(&out, 0, sizeof(out));
    out.struct_size = TDG_TABLE_JOURNAL_SIZE_5;
    auto& partitions = owned.partitionLists.emplace_back();
    for (const TableName& partition : table.partitions) partitions.push_back(refOf(partition));
    out.num_partitions = static_cast<int32_t>(partitions.size());
    out.partitions = partitions.data();
    auto& keys = owned.foreignKeyLists.emplace_back();
    for (const BypassingForeignKey& key : table.bypassingForeignKeys) {
        TdgBypassingForeignKey& entry = owned.foreignKeys.emplace_back();
        std::memset(&entry, 0, sizeof(entry));
        entry.struct_size = TDG_BYPASSING_FOREIGN_KEY_SIZE_5;
        entry.constraint_name = key.constraintName.c_str();
        entry.parent = refOf(key.parent);
        entry.actions = key.actions.c_str();
        keys.push_back(&entry);
    }
    out.num_bypassing_foreign_keys = static_cast<int32_t>(keys.size());
    out.bypassing_foreign_keys = keys.data();
    auto& triggers = owned.triggerLists.emplace_back();
    for (const JournalTrigger& trigger : table.triggers) {
        TdgJournalTrigger& entry = owned.triggers.emplace_back();
        std::memset(&entry, 0, sizeof(entry));
        entry.struct_size = TDG_JOURNAL_TRIGGER_SIZE_6;
        entry.name = trigger.name.c_str();
        entry.events = trigger.events.c_str();
        entry.journal_name = optionalText(trigger.journalName);
        if (trigger.keyColumns) {
            auto& columns = owned.keyColumnLists.emplace_back();
            for (const std::string& column : *trigger.keyColumns) columns.push_back(column.c_str());
            entry.num_key_columns = static_cast<int32_t>(columns.size());
            entry.key_columns = columns.data();
        }
        triggers.push_back(&entry);
    }
    out.num_triggers = static_cast<int32_t>(triggers.size());
    out.triggers = triggers.data();
    return &out;
}

void releaseInspection(TdgJournalInspection* inspection) {
    if (inspection == nullptr) return;
    delete static_cast<OwnedInspection*>(inspection->private_data);
    std::memset(inspection, 0, sizeof(*inspection));
}

}  // namespace

JournalRequest toJournalRequest(const TdgJournalRequest& request) {
    if (request.struct_size < TDG_JOURNAL_REQUEST_SIZE_5) {
        throw invalidArgument("journal request is smaller than ABI version 5 requires");
    }
    requireNonNull(request.diffgen.name, "diffgen table name");
    if (request.num_tables < 0) throw invalidArgument("num_tables is negative");
    if (request.num_tables > 0) requireNonNull(request.tables, "tables");
    JournalRequest typed;
    typed.diffgen = TableName::fromRef(request.diffgen);
    for (int32_t i = 0; i < request.num_tables; ++i) {
        requireNonNull(request.tables[i].name, "table name");
        typed.tables.push_back(TableName::fromRef(request.tables[i]));
    }
    typed.includeTriggers = request.include_triggers != 0;
    return typed;
}

void publishBounds(const JournalBounds& bounds, TdgJournalBounds* out) {
    if (out->struct_size < TDG_JOURNAL_BOUNDS_SIZE_5) {
        throw invalidArgument("journal bounds output is smaller than ABI version 5 requires");
    }
    const bool withRecord = out->struct_size >= TDG_JOURNAL_BOUNDS_SIZE_6;
    out->struct_size = withRecord ? TDG_JOURNAL_BOUNDS_SIZE_6 : TDG_JOURNAL_BOUNDS_SIZE_5;
    out->is_empty = bounds.empty ? 1 : 0;
    out->oldest_id = bounds.empty ? 0 : bounds.oldestId;
    out->newest_id = bounds.empty ? 0 : bounds.newestId;
    out->has_next_id = bounds.nextId ? 1 : 0;
    out->next_id = bounds.nextId.value_or(0);
    if (!withRecord) return;
    out->has_prune_record = bounds.highestPrunedId ? 1 : 0;
    out->highest_pruned_id = bounds.highestPrunedId.value_or(0);
}

void publishInspection(JournalInspection facts, size_t requestedTables, TdgJournalInspection* out) {
    if (facts.tables.size() != requestedTables) {
        throw DriverError(TDG_INTERNAL, "inspectJournal answered for " +
                                            std::to_string(facts.tables.size()) + " of " +
                                            std::to_string(requestedTables) + " tables");
    }
    auto owned = std::make_unique<OwnedInspection>();
    owned->facts = std::move(facts);
    for (const TableJournal& table : owned->facts.tables) {
        owned->tableList.push_back(publishTable(*owned, table));
    }
    std::memset(out, 0, sizeof(*out));
    out->struct_size = TDG_JOURNAL_INSPECTION_SIZE_5;
    out->num_tables = static_cast<int32_t>(owned->tableList.size());
    out->id_source = optionalText(owned->facts.idSource);
    out->id_cache = owned->facts.idCache;
    out->horizon_problem = optionalText(owned->facts.horizonProblem);
    out->tables = owned->tableList.data();
    out->release = &releaseInspection;
    out->private_data = owned.release();
}

}  // namespace tapdiffgen::sdk::detail

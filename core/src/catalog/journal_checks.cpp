#include "catalog/journal_checks.hpp"

#include "util/log.hpp"

namespace tapdiffgen::core {
namespace {

std::vector<TableRef> configuredTables(const TapConfig& config) {
    std::vector<TableRef> tables;
    tables.reserve(config.tables.size());
    for (const TableSetting& table : config.tables) tables.push_back(table.table);
    return tables;
}

std::string joinedNames(const std::vector<BypassingForeignKey>& keys) {
    std::string names;
    for (const BypassingForeignKey& key : keys) {
        names += (names.empty() ? "" : ", ") + key.constraintName + " (" + key.actions + " from '" +
                 key.parent.display() + "')";
    }
    return names;
}

}  // namespace

std::string snapshotAgainHint(const std::string& tableName) {
    return "set \"start_from\": \"when_needed\" on table '" + tableName + "' to snapshot it again";
}

const TableJournal* JournalFacts::table(size_t i) const {
    if (!inspection || i >= inspection->tables.size()) return nullptr;
    return &inspection->tables[i];
}

JournalFacts readJournalFacts(DialectConnection& connection, const TapConfig& config,
                              bool includeTriggers) {
    const TableRef& diffgen = config.diffgen;
    JournalFacts facts;
    facts.bounds = connection.journalBounds(diffgen);
    facts.inspection =
        connection.inspectJournal(diffgen, configuredTables(config), includeTriggers);
    const std::string plugin = "the dialect plugin " + connection.plugin().dialect();
    if (!facts.bounds) {
        log::info(plugin + " cannot read the diffgen log's bounds: a pruned or reset journal " +
                  "is not noticed");
    }
    if (!facts.inspection) {
        log::info(plugin + " cannot inspect the journal: the id sequence's cache, partitions " +
                  "and foreign-key actions are not checked");
    }
    return facts;
}

void checkIdSequence(const JournalFacts& facts, const TapConfig& config) {
    if (!facts.inspection || facts.inspection->idCache <= 1) return;
    const std::string source = facts.inspection->idSource.value_or("the sequence of diffgen.id");
    const std::string cache = std::to_string(facts.inspection->idCache);
    const std::string risk = "diffgen.id comes from " + source + " with CACHE " + cache +
                             ": a session holds cached ids between its transactions and can "
                             "commit one after the tap has read past it, and that change is lost";
    if (config.acceptCachedSequence) {
        log::warning(risk + " (accept_cached_sequence is true)");
        return;
    }
    throw JournalError(risk + "; run ALTER SEQUENCE " + source +
                       " CACHE 1, or set accept_cached_sequence to true to accept the risk");
}

void warnBypassingForeignKeys(const JournalFacts& facts, const TapConfig& config) {
    for (size_t i = 0; i < config.tables.size(); ++i) {
        const TableJournal* table = facts.table(i);
        if (table == nullptr || table->bypassingForeignKeys.empty()) continue;
        log::warning("table '" + config.tables[i].tableName + "': foreign key " +
                     joinedNames(table->bypassingForeignKeys) +
                     " changes its rows without firing its triggers, so those changes never "
                     "reach diffgen and the replica keeps them as they were; replace the "
                     "action by a trigger on the parent (packaging/diffgen/mysql.sql)");
    }
}

std::vector<std::string> streamsToSnapshotAgain(const JournalFacts& facts,
                                                const std::vector<StreamDefinition>& streams,
                                                const TapState& state) {
    std::vector<std::string> again;
    if (!facts.bounds) return again;
    for (const StreamDefinition& stream : streams) {
        if (!stream.selected) continue;
        const std::optional<int64_t> bookmark = state.bookmark(stream.name);
        if (!bookmark) {
            const JournalBounds& bounds = *facts.bounds;
            if (stream.startFrom == StartFrom::Beginning && !bounds.empty && bounds.oldestId > 1) {
                log::warning("stream '" + stream.name + "': diffgen's oldest event is id " +
                             std::to_string(bounds.oldestId) +
                             ", so rows last changed before it are not replayed; "
                             "\"start_from\": \"snapshot\" reads them from the table");
            }
            continue;
        }
        const std::optional<LostCoverage> lost = facts.bounds->lostAfter(*bookmark);
        if (!lost) continue;
        if (stream.startFrom != StartFrom::WhenNeeded) {
            throw JournalError(lost->describe(stream.name) + "; " +
                               snapshotAgainHint(stream.tableName));
        }
        log::warning(lost->describe(stream.name) +
                     "; start_from is when_needed, so the table is snapshotted again");
        again.push_back(stream.name);
    }
    return again;
}

}  // namespace tapdiffgen::core

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

}  // namespace

std::string snapshotAgainHint(const std::string& tableName) {
    return "set \"start_from\": \"when_needed\" on table '" + tableName + "' to snapshot it again";
}

const TableJournal* JournalFacts::table(size_t i) const {
    if (!inspection || i >= inspection->tables.size()) return nullptr;
    return &inspection->tables[i];
}

JournalFacts readJournalFacts(DialectConnection& connection, const TapConfig& config) {
    const TableRef& diffgen = config.diffgen;
    const std::vector<TableRef> tables = configuredTables(config);
    JournalFacts facts;
    facts.bounds = connection.journalBounds(diffgen);
    try {
        facts.inspection = connection.inspectJournal(diffgen, tables, true);
        facts.triggersListed = facts.inspection.has_value();
    } catch (const DialectError& hidden) {
        if (hidden.status() != TDG_UNAUTHORIZED) throw;
        facts.triggersHidden = hidden.what();
        facts.inspection = connection.inspectJournal(diffgen, tables, false);
    }
    const std::string plugin = "the dialect plugin " + connection.plugin().dialect();
    if (!facts.bounds) {
        log::info(plugin + " cannot read the diffgen log's bounds: a pruned or reset journal " +
                  "is not noticed");
    }
    if (!facts.inspection) {
        log::info(plugin + " cannot inspect the journal: the id sequence's cache, partitions " +
                  "and foreign-key actions are not checked");
    }
    if (facts.triggersHidden) {
        log::info("the journal triggers are not listed, so the journal names and key columns " +
                  std::string("they write are not checked: ") + *facts.triggersHidden);
    }
    return facts;
}

}  // namespace tapdiffgen::core

#include "catalog/diffgen_check.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "catalog/discovery.hpp"
#include "util/log.hpp"

namespace tapdiffgen::core {

void checkDiffgenTable(DialectConnection& connection, const TapConfig& config) {
    std::vector<ColumnDescription> columns;
    try {
        columns = connection.describeTable(config.diffgen);
    } catch (const DialectError& failure) {
        if (failure.status() != TDG_NOT_FOUND) throw;
        throw DiscoveryError("diffgen table '" + config.diffgenTable +
                             "' (setting diffgen_table) does not exist: " + failure.what());
    }
    for (const char* required : {"id", "tablename", "table_id", "op", "ts_created"}) {
        bool present = std::any_of(columns.begin(), columns.end(),
                                   [&](const auto& column) { return column.name == required; });
        if (!present) {
            throw DiscoveryError("diffgen table '" + config.diffgenTable + "' has no column '" +
                                 required +
                                 "' (a journal needs id, tablename, table_id, op, "
                                 "ts_created)");
        }
    }
}

namespace {

bool hasEvents(DialectConnection& connection, const TableRef& diffgen, const std::string& name) {
    return !connection.readDiffgenPage(diffgen, 0, INT64_MAX, 1, {name}).empty();
}

// A name no table reads, and the table that might mean it: its table_name, its name without
// the schema, or one of its partitions (journalled under the partition's name by a trigger
// that writes TG_TABLE_NAME).
struct NearName {
    const TableSetting* table;
    bool partition;
};

std::map<std::string, NearName> nearNames(const TapConfig& config, const JournalFacts& facts) {
    std::set<std::string> read;
    for (const auto& table : config.tables) read.insert(table.journalName);
    std::map<std::string, NearName> near;
    auto add = [&](const std::string& name, const TableSetting& table, bool partition) {
        if (read.count(name) == 0) near.emplace(name, NearName{&table, partition});
    };
    for (size_t i = 0; i < config.tables.size(); ++i) {
        const TableSetting& table = config.tables[i];
        add(table.tableName, table, false);
        add(table.tableName.substr(table.tableName.find('.') + 1), table, false);
        const TableJournal* journal = facts.table(i);
        if (journal == nullptr) continue;
        for (const TableRef& partition : journal->partitions) {
            add(partition.name, table, true);
            add(partition.display(), table, true);
        }
    }
    return near;
}

std::string nearNameMessage(const std::string& found, const NearName& near) {
    const TableSetting& table = *near.table;
    if (near.partition) {
        return "table '" + table.tableName + "': diffgen has events under its partition '" + found +
               "', which no stream reads; its triggers must journal the partitioned " +
               "table's own name '" + table.journalName +
               "' (packaging/diffgen/postgres.sql: diffgen_attach on the partitioned table)";
    }
    return "table '" + table.tableName + "': diffgen has events under '" + found +
           "' but none under its journal name '" + table.journalName +
           "'; set journal_name to what its trigger writes into diffgen.tablename";
}

}  // namespace

void checkJournalNames(DialectConnection& connection, const TapConfig& config,
                       const JournalFacts& facts) {
    const TableRef& diffgen = config.diffgen;
    std::map<std::string, NearName> near = nearNames(config, facts);
    // Each read finds the first event of a near name not yet found; usually the first read
    // finds none and the check is over.
    while (!near.empty()) {
        std::vector<std::string> names;
        for (const auto& entry : near) names.push_back(entry.first);
        EventPage page = connection.readDiffgenPage(diffgen, 0, INT64_MAX, 1, names);
        if (page.empty()) return;
        const std::string found = page[0].table_name;
        auto hit = near.find(found);
        if (hit == near.end()) return;  // a driver that matched loosely: nothing to judge
        const NearName match = hit->second;
        near.erase(hit);
        const bool journalled = hasEvents(connection, diffgen, match.table->journalName);
        // Events under a partition's name are lost whatever else the table journals.
        if (journalled && !match.partition) continue;
        const std::string message = nearNameMessage(found, match);
        if (!journalled && !match.table->journalNameGiven) throw DiscoveryError(message);
        log::warning(message);
    }
}

}  // namespace tapdiffgen::core

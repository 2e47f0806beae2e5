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
        columns = connection.describeTable(TableRef::parse(config.diffgenTable));
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

// Near names of each table that no table reads, mapped to the table that might mean them.
std::map<std::string, const TableSetting*> nearNames(const TapConfig& config) {
    std::set<std::string> read;
    for (const auto& table : config.tables) read.insert(table.journalName);
    std::map<std::string, const TableSetting*> near;
    for (const auto& table : config.tables) {
        std::string bare = table.tableName.substr(table.tableName.find('.') + 1);
        for (const std::string& name : {table.tableName, bare}) {
            if (read.count(name) == 0) near.emplace(name, &table);
        }
    }
    return near;
}

}  // namespace

void checkJournalNames(DialectConnection& connection, const TapConfig& config) {
    const TableRef diffgen = TableRef::parse(config.diffgenTable);
    std::map<std::string, const TableSetting*> near = nearNames(config);
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
        const TableSetting& table = *hit->second;
        near.erase(hit);
        if (hasEvents(connection, diffgen, table.journalName)) continue;
        std::string message = "table '" + table.tableName + "': diffgen has events under '" +
                              found + "' but none under its journal name '" + table.journalName +
                              "'; set journal_name to what its trigger writes into " +
                              "diffgen.tablename";
        if (!table.journalNameGiven) throw DiscoveryError(message);
        log::warning(message);
    }
}

}  // namespace tapdiffgen::core

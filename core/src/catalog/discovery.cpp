#include "catalog/discovery.hpp"

#include <algorithm>

namespace tapdiffgen::core {
namespace {

std::string columnList(const std::vector<ColumnDescription>& columns) {
    std::string names;
    for (const auto& column : columns) {
        if (!names.empty()) names += ", ";
        names += column.name;
    }
    return names;
}

// A key the journal cannot carry or the driver cannot fetch by would replay wrong rows, or
// none: refused before any output. A plugin states it per column (ABI 6); an older one's
// columns are judged by kind.
void refuseUnkeyable(const ColumnDescription& column, const TableSetting& setting,
                     const std::string& where) {
    const bool refused = column.keySupport == TDG_KEY_SUPPORT_NO ||
                         (column.keySupport == TDG_KEY_SUPPORT_UNSTATED &&
                          (column.kind == TDG_KIND_JSON || column.kind == TDG_KIND_NULL));
    if (!refused) return;
    throw DiscoveryError("table '" + setting.tableName + "': key column '" + column.name +
                         "' (pk_column in " + where + ") is of type " + column.sqlType +
                         ", which cannot be a key (its plugin's README lists the key types)");
}

KeySpec keySpecOf(const TableSetting& setting, const std::vector<ColumnDescription>& columns,
                  const std::string& where) {
    KeySpec key;
    for (const std::string& name : setting.pkColumns) {
        auto column = std::find_if(columns.begin(), columns.end(),
                                   [&](const ColumnDescription& c) { return c.name == name; });
        if (column == columns.end()) {
            throw DiscoveryError("pk_column '" + name + "' in " + where +
                                 " is not a column of table '" + setting.tableName +
                                 "' (its columns: " + columnList(columns) + ")");
        }
        refuseUnkeyable(*column, setting, where);
        key.columns.push_back(keyColumnOf(*column));
    }
    return key;
}

std::string whereOf(size_t index) { return "config['tables'][" + std::to_string(index) + "]"; }

std::vector<ColumnDescription> describeOne(DialectConnection& connection, const TapConfig& config,
                                           size_t index) {
    const TableSetting& setting = config.tables[index];
    try {
        return connection.describeTable(setting.table);
    } catch (const DialectError& failure) {
        if (failure.status() == TDG_NOT_FOUND) {
            throw DiscoveryError("table '" + setting.tableName + "' in " + whereOf(index) +
                                 " does not exist: " + failure.what());
        }
        throw;
    }
}

// Every configured table in one call, so that start-up does not grow with the tables; when
// one is missing, the tables are asked one by one to say which entry of the config it is.
std::vector<std::vector<ColumnDescription>> describeAll(DialectConnection& connection,
                                                        const TapConfig& config) {
    std::vector<TableRef> tables;
    for (const auto& setting : config.tables) tables.push_back(setting.table);
    try {
        return connection.describeTables(tables);
    } catch (const DialectError& failure) {
        if (failure.status() != TDG_NOT_FOUND) throw;
    }
    std::vector<std::vector<ColumnDescription>> described;
    for (size_t i = 0; i < config.tables.size(); ++i) {
        described.push_back(describeOne(connection, config, i));
    }
    return described;
}

StreamDefinition describeStream(DialectConnection& connection, const TapConfig& config,
                                size_t index, std::vector<ColumnDescription> columns) {
    const TableSetting& setting = config.tables[index];
    const std::string where = whereOf(index);
    StreamDefinition stream;
    stream.name = setting.streamName();
    stream.tableName = setting.tableName;
    stream.journalName = setting.journalName;
    stream.table = setting.table;
    stream.mode = setting.mode;
    stream.startFrom = setting.startFrom;
    stream.addDeletedAt = config.addSdcDeletedAt;
    stream.key = keySpecOf(setting, columns, where);
    for (ColumnDescription& column : columns) {
        stream.columns.push_back(StreamColumn{std::move(column)});
    }
    if (stream.key.composite() && !connection.acceptsCompositeKeys()) {
        throw DiscoveryError("pk_column in " + where + " names a composite key, which the " +
                             connection.plugin().dialect() +
                             " plugin cannot read (it speaks dialect ABI version 1; composite "
                             "keys need version 2)");
    }
    if (const std::optional<std::string> reserved = reservedColumnOf(stream)) {
        throw DiscoveryError("table '" + setting.tableName + "' has a column named '" + *reserved +
                             "', which tap-diffgen adds to every record");
    }
    return stream;
}

}  // namespace

std::vector<StreamDefinition> discoverStreams(DialectConnection& connection,
                                              const TapConfig& config) {
    std::vector<std::vector<ColumnDescription>> columns = describeAll(connection, config);
    std::vector<StreamDefinition> streams;
    streams.reserve(config.tables.size());
    for (size_t i = 0; i < config.tables.size(); ++i) {
        streams.push_back(describeStream(connection, config, i, std::move(columns[i])));
    }
    return streams;
}

}  // namespace tapdiffgen::core

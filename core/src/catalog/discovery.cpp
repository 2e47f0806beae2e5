#include "catalog/discovery.hpp"

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

StreamDefinition describeStream(DialectConnection& connection, const TapConfig& config,
                                size_t index) {
    const TableSetting& setting = config.tables[index];
    const std::string where = "config['tables'][" + std::to_string(index) + "]";
    StreamDefinition stream;
    stream.name = StreamDefinition::streamNameFor(setting.tableName);
    stream.tableName = setting.tableName;
    stream.journalName = setting.journalName;
    stream.table = TableRef::parse(setting.tableName);
    stream.keyColumn = setting.pkColumn;
    stream.mode = setting.mode == "tombstones_only" ? StreamMode::TombstonesOnly : StreamMode::Full;
    stream.startFrom = setting.startFrom == "snapshot" ? StartFrom::Snapshot : StartFrom::Beginning;
    stream.addDeletedAt = config.addSdcDeletedAt;
    try {
        stream.columns = connection.describeTable(stream.table);
    } catch (const DialectError& failure) {
        if (failure.status() == TDG_NOT_FOUND) {
            throw DiscoveryError("table '" + setting.tableName + "' in " + where +
                                 " does not exist: " + failure.what());
        }
        throw;
    }
    bool keyFound = false;
    for (const auto& column : stream.columns)
        keyFound = keyFound || column.name == setting.pkColumn;
    if (!keyFound) {
        throw DiscoveryError("pk_column '" + setting.pkColumn + "' in " + where +
                             " is not a column of table '" + setting.tableName +
                             "' (its columns: " + columnList(stream.columns) + ")");
    }
    for (const auto& column : stream.columns) {
        if (column.name == kIsDeleted || column.name == kDiffgenTsCreated ||
            column.name == kDeletedAt) {
            throw DiscoveryError("table '" + setting.tableName + "' has a column named '" +
                                 column.name + "', which tap-diffgen adds to every record");
        }
    }
    stream.columnSelected.assign(stream.columns.size(), true);
    return stream;
}

}  // namespace

std::vector<StreamDefinition> discoverStreams(DialectConnection& connection,
                                              const TapConfig& config) {
    std::vector<StreamDefinition> streams;
    streams.reserve(config.tables.size());
    for (size_t i = 0; i < config.tables.size(); ++i) {
        streams.push_back(describeStream(connection, config, i));
    }
    return streams;
}

}  // namespace tapdiffgen::core

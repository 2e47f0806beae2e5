#include "catalog/diffgen_check.hpp"

#include <algorithm>

#include "catalog/discovery.hpp"

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

}  // namespace tapdiffgen::core

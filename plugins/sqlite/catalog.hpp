// describe_table for SQLite: the columns from pragma table_xinfo, which also lists generated
// columns (table_info leaves them out although they can be read), with each declared type
// mapped to a kind (types.hpp). A schema is the name of an attached database: "main", "temp".
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "session.hpp"
#include "tap-diffgen/sdk/types.hpp"

namespace tapdiffgen::sqlite {

/// Columns in ordinal order; throws DriverError(TDG_NOT_FOUND) naming the table (or the
/// schema) when it does not exist.
std::vector<sdk::ColumnInfo> describeTable(Session& database, const sdk::TableName& table);

/// The table's rows as sqlite_stat1 estimates them (after ANALYZE), else the span of its
/// rowids (two reads of the rowid b-tree, exact for a table that never lost a row); nullopt for
/// a WITHOUT ROWID table never analysed.
std::optional<int64_t> estimateRows(Session& database, const sdk::TableName& table);

}  // namespace tapdiffgen::sqlite

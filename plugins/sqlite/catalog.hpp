// describe_table for SQLite: the columns from pragma table_xinfo, which also lists generated
// columns (table_info leaves them out although they can be read), with each declared type
// mapped to a kind (types.hpp). A schema is the name of an attached database: "main", "temp".
#pragma once

#include <vector>

#include "session.hpp"
#include "tap-diffgen/sdk/types.hpp"

namespace tapdiffgen::sqlite {

/// Columns in ordinal order; throws DriverError(TDG_NOT_FOUND) naming the table (or the
/// schema) when it does not exist.
std::vector<sdk::ColumnInfo> describeTable(Session& database, const sdk::TableName& table);

}  // namespace tapdiffgen::sqlite

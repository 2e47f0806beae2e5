// What a row read selects: the requested columns in order, each with the kind describe_table
// reported for it, plus json_valid() of every JSON column, so invalid documents are caught by
// SQLite's own parser in the same statement.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tap-diffgen/sdk/types.hpp"

namespace tapdiffgen::sqlite {

struct ColumnPlan {
    std::string name;
    TdgValueKind kind = TDG_KIND_TEXT;
    int scale = -1;
    /// The table's name for messages ("schema.table").
    std::string table;
    /// JSON columns: the result column holding json_valid() of this one; -1 otherwise.
    int validColumn = -1;
    /// A column declared UUID (types.hpp).
    bool uuid = false;
};

/// The alias the table has in every row read, so that the select list never meets a name of
/// the statement's own (the key list of a composite fetch).
inline constexpr const char* kRowAlias = "\"r\"";

struct SelectPlan {
    std::vector<ColumnPlan> columns;
    /// Columns qualified with kRowAlias, then the json_valid() checks.
    std::string selectList;
    /// Where each key column stands in `columns`, in key order.
    std::vector<int> keyIndices;
    /// The key columns qualified with kRowAlias, in key order.
    std::vector<std::string> keySql;
    /// The table, always schema-qualified ("main" by default), so that no common table
    /// expression of the statement can shadow it.
    std::string tableSql;
};

/// True when every requested column and the key are in `described` (false means the cached
/// description is older than the table).
bool describesAll(const std::vector<sdk::ColumnInfo>& described,
                  const std::vector<std::string_view>& requested,
                  const std::vector<std::string_view>& keyColumns);

/// The plan for `requested`; throws DriverError(TDG_NOT_FOUND) naming a missing column and
/// TDG_INVALID_ARGUMENT when a key column is not among the requested columns.
SelectPlan planSelect(const std::vector<sdk::ColumnInfo>& described, const sdk::TableName& table,
                      const std::vector<std::string_view>& requested,
                      const std::vector<std::string_view>& keyColumns);

}  // namespace tapdiffgen::sqlite

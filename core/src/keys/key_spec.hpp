// The primary key of a stream: its columns in key order, each with the kind its values arrive
// in. One type carries it from the configuration (pk_column, a name or a list) through dedup,
// tombstones and the renderer to the driver's fetch and scan requests.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tap-diffgen/dialect_abi.h"

namespace tapdiffgen::core {

struct KeyColumn {
    std::string name;  // exact column name
    TdgValueKind kind = TDG_KIND_TEXT;
    /// uuid text may be journalled in upper case; the database returns it in lower case.
    bool caseInsensitive = false;
    /// The column's SQL type as the driver spells it, for messages.
    std::string sqlType;
    /// DECIMAL: the declared scale; TIME, TIMESTAMP, TIMESTAMPTZ: the fractional-second
    /// digits (ABI 6); -1 when not declared.
    int scale = -1;
};

struct KeySpec {
    std::vector<KeyColumn> columns;  // at least one

    /// More than one column: diffgen.table_id holds the key as a JSON array.
    bool composite() const { return columns.size() > 1; }
    bool contains(std::string_view name) const;
    std::vector<std::string> names() const;
};

}  // namespace tapdiffgen::core

// Column kinds from SQLite's declared types. SQLite stores any value in any column; the
// declared type only gives the column an affinity. The kind follows the affinity rules of
// https://www.sqlite.org/datatype3.html (section 3.1), after a few type names that carry more
// meaning than their affinity: BOOLEAN, DATE, DATETIME, TIMESTAMP, TIME, JSON, UUID, and
// NUMERIC/DECIMAL with a declared scale.
#pragma once

#include <string_view>

#include "tap-diffgen/dialect_abi.h"

namespace tapdiffgen::sqlite {

struct ColumnType {
    TdgValueKind kind = TDG_KIND_TEXT;
    int precision = -1;
    int scale = -1;
    /// Declared UUID: TEXT holding uuids, sent in their canonical lower-case form.
    bool uuid = false;
};

/// The kind of a column declared as `declared` ("VARCHAR(20)", "numeric(12, 2)", "").
ColumnType columnTypeFor(std::string_view declared);

}  // namespace tapdiffgen::sqlite

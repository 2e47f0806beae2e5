// What information_schema says about a table: its columns for describe_table, and which of its
// LONGTEXT columns are MariaDB JSON (a json_valid CHECK constraint is all that marks them).
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cells.hpp"
#include "session.hpp"
#include "tap-diffgen/sdk/types.hpp"

namespace tapdiffgen::mysql {

class Catalog {
public:
    explicit Catalog(Session& session) : session_(session) {}

    /// Columns in ordinal order; throws sdk::notFound naming the table when it is missing.
    std::vector<sdk::ColumnInfo> describe(const sdk::TableName& table);

    /// Which result columns carry MariaDB JSON. Cached per table; read again when a column
    /// appears that the cache has not seen (the table was altered).
    CellWriter::JsonTest jsonColumns(const sdk::TableName& table,
                                     const std::vector<FieldInfo>& fields);

private:
    struct Known {
        std::set<std::string> columns;
        std::set<std::string> json;
    };
    using Key = std::pair<std::string, std::string>;

    Key keyOf(const sdk::TableName& table) const;
    std::set<std::string> jsonCheckedColumns(const Key& key);

    Session& session_;
    std::map<Key, Known> known_;
};

}  // namespace tapdiffgen::mysql

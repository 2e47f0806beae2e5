// What information_schema says about a table: its columns for describe_table, and which of its
// LONGTEXT columns are MariaDB JSON (a json_valid CHECK constraint is all that marks them).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cells.hpp"
#include "session.hpp"
#include "sql_text.hpp"
#include "tap-diffgen/sdk/types.hpp"

namespace tapdiffgen::mysql {

/// A column as information_schema describes it (catalog.cpp).
struct DescribedColumn;

/// Tables of one schema, for a catalog read that takes a schema and a list of names.
struct SchemaChunk {
    std::string schema;
    std::vector<std::string> names;
};

/// What a catalog read gave for the table `requested`: the rows of the table spelled exactly
/// so, or else of one spelled otherwise (information_schema may compare names without regard
/// to case); none when there are neither.
template <typename Rows>
Rows rowsOfTable(const std::map<std::string, Rows>& byName, const std::string& requested) {
    if (auto exact = byName.find(requested); exact != byName.end()) return exact->second;
    for (const auto& [name, rows] : byName) {
        if (lowerCase(name) == lowerCase(requested)) return rows;
    }
    return {};
}

/// `text` (a schema's or a table's name) as a quoted literal, escaped for the connection.
std::string textLiteral(MYSQL* connection, const std::string& text);
/// "('a', 'b')": the names as quoted literals, escaped for the connection.
std::string nameList(MYSQL* connection, const std::vector<std::string>& names);

class Catalog {
public:
    explicit Catalog(Session& session) : session_(session) {}

    /// Columns in ordinal order; throws sdk::notFound naming the table when it is missing.
    std::vector<sdk::ColumnInfo> describe(const sdk::TableName& table);

    /// describe for several tables, in two statements per schema and thousand tables whatever
    /// their number; sdk::notFound names the first missing table in the order given.
    std::vector<std::vector<sdk::ColumnInfo>> describeMany(
        const std::vector<sdk::TableName>& tables);

    /// The tables' names by schema (a name without one in the session's database; left out
    /// when there is none), at most a thousand names a chunk, each name once.
    std::vector<SchemaChunk> schemaChunks(const std::vector<sdk::TableName>& tables) const;

    /// Which result columns carry MariaDB JSON. Cached per table; read again when a column
    /// appears that the cache has not seen (the table was altered).
    CellWriter::JsonTest jsonColumns(const sdk::TableName& table,
                                     const std::vector<FieldInfo>& fields);

    /// The table's rows as information_schema.TABLES.TABLE_ROWS estimates them (InnoDB's
    /// sampled statistics), nullopt when it gives none.
    std::optional<int64_t> estimateRows(const sdk::TableName& table);

    /// A table and the columns of a result read from it.
    struct ResultColumns {
        const sdk::TableName& table;
        const std::vector<FieldInfo>& fields;
    };
    /// Reads, with describeMany, every table of `results` that jsonColumns would read first,
    /// so that many such tables cost one query.
    void learnJsonColumns(const std::vector<ResultColumns>& results);

private:
    struct Known {
        std::set<std::string> columns;
        std::set<std::string> json;
    };
    using Key = std::pair<std::string, std::string>;

    Key keyOf(const sdk::TableName& table) const;
    /// Whether jsonColumns must read the table before it can answer for `fields`.
    bool mustRead(const Key& key, const std::vector<FieldInfo>& fields) const;
    /// keyOf, or notFound when the name has no database and the session has none either.
    Key checkedKeyOf(const sdk::TableName& table) const;
    void readMany(const std::string& schema, const std::vector<std::string>& names,
                  std::map<Key, std::vector<DescribedColumn>>& columns,
                  std::map<Key, std::set<std::string>>& json);
    /// Caches what the tap needs later and returns describe_table's columns.
    std::vector<sdk::ColumnInfo> remember(const Key& key, std::vector<DescribedColumn> described,
                                          const std::set<std::string>& json);

    Session& session_;
    std::map<Key, Known> known_;
};

}  // namespace tapdiffgen::mysql

// describe_table from pg_catalog: columns in ordinal order with their SQL type, nullability,
// primary key membership and how the driver reads them.
#pragma once

#include <libpq-fe.h>

#include <charconv>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "session.hpp"
#include "tap-diffgen/sdk/errors.hpp"
#include "tap-diffgen/sdk/types.hpp"
#include "types.hpp"

namespace tapdiffgen::postgres {

/// A number the catalog gave as text; DriverError(TDG_INTERNAL) for anything else.
template <typename Number>
Number catalogNumber(std::string_view text) {
    Number value{};
    auto parsed = std::from_chars(text.data(), text.data() + text.size(), value);
    if (parsed.ec != std::errc()) {
        throw sdk::DriverError(TDG_INTERNAL, "unexpected catalog value: " + std::string(text));
    }
    return value;
}

struct PgColumn {
    sdk::ColumnInfo info;
    Conversion conversion = Conversion::Text;
    Oid resultType = 0;       // what the select list yields (json for arrays)
    Oid baseType = 0;         // the column's type with domains resolved
    Oid arrayType = 0;        // baseType's array type, for binding a key list (0: none)
    int arrayDimensions = 0;  // see TypeMapping
};

struct TableDescription {
    std::vector<PgColumn> columns;

    const PgColumn* find(std::string_view name) const;
};

/// Throws DriverError(TDG_NOT_FOUND, "table 'x' does not exist") when there is no such table,
/// view or foreign table (without a schema: none visible through the search_path).
TableDescription describeTable(Session& session, const sdk::TableName& table);

/// The oid of each table as text, in the order given; nullopt for one that does not exist (an
/// unqualified name: none visible through the search_path). One statement.
std::vector<std::optional<std::string>> relationOids(Session& session,
                                                     const std::vector<sdk::TableName>& tables);

/// For each table, in the order given, a text that changes whenever its description would (its
/// oid and a digest of its columns and key); nullopt for one that does not exist. One
/// statement, much cheaper than describeTables.
std::vector<std::optional<std::string>> columnDigests(Session& session,
                                                      const std::vector<sdk::TableName>& tables);

/// describeTable for several tables in one statement, whatever their number; notFound names
/// the first table, in the order given, that does not exist.
std::vector<TableDescription> describeTables(Session& session,
                                             const std::vector<sdk::TableName>& tables);

/// The table's rows as the planner's statistics estimate them (pg_class.reltuples), nullopt
/// for a table never vacuumed or analysed. Throws notFound for a table that does not exist.
std::optional<int64_t> estimateRows(Session& session, const sdk::TableName& table);

}  // namespace tapdiffgen::postgres

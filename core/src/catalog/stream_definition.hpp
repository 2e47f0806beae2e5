// A configured table as a Singer stream: its columns (from the driver, in ordinal order),
// which of them are selected, and the JSON Schema the SCHEMA message carries.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "config/tap_config.hpp"
#include "keys/key_spec.hpp"
#include "plugin/dialect_connection.hpp"

namespace tapdiffgen::core {

/// Names of the columns every record carries beside the table's own.
inline constexpr const char* kIsDeleted = "is_deleted";
inline constexpr const char* kDiffgenTsCreated = "_sdc_diffgen_ts_created";
inline constexpr const char* kDeletedAt = "_sdc_deleted_at";

/// A column of a stream's table, as the driver described it, and whether the stream emits it.
struct StreamColumn : ColumnDescription {
    /// Every column is selected unless a catalog deselects it; key columns always are.
    bool selected = true;
};

/// Whether two descriptions of a column say the same: name, place, kind, SQL type, precision,
/// scale, nullability, key membership and JSON Schema.
bool sameDescription(const ColumnDescription& a, const ColumnDescription& b);

struct StreamDefinition {
    std::string name;         // "invoices", or "sales-invoices" for sales.invoices
    std::string tableName;    // as configured
    std::string journalName;  // matched against diffgen.tablename
    TableRef table;
    KeySpec key;
    StreamMode mode = StreamMode::Full;
    StartFrom startFrom = StartFrom::Beginning;
    bool addDeletedAt = true;
    std::vector<StreamColumn> columns;  // every column of the table, in ordinal order
    bool selected = true;
    /// The columns a catalog deselected, by name: they stay out when the table is described
    /// again during the run, while a column the catalog does not name is selected with its
    /// stream (the Singer SDK's rule for a property without metadata).
    std::vector<std::string> deselectedColumns;

    /// Selected columns in ordinal order (the key is always among them).
    std::vector<const ColumnDescription*> selectedColumns() const;
    /// The stream's JSON Schema for the selected columns plus the metadata properties.
    std::string schemaJson() const;
    /// The same for every column (what --discover shows).
    std::string fullSchemaJson() const;

private:
    std::string schemaFor(const std::vector<const ColumnDescription*>& columns) const;
};

/// Whether the column holds uuids, as its schema's format says: their text may be journalled in
/// upper case, where the database returns it in lower case.
bool holdsUuids(const ColumnDescription& column);

/// The key column a described column makes: its kind, type, scale and how it compares.
KeyColumn keyColumnOf(const ColumnDescription& column);

/// A column of the stream's table that takes the name of a column tap-diffgen adds to every
/// record (is_deleted, _sdc_diffgen_ts_created, _sdc_deleted_at), if any.
std::optional<std::string> reservedColumnOf(const StreamDefinition& stream);

/// A column's schema with null allowed (every non-key column: tombstones carry nulls).
std::string nullableSchema(const std::string& schemaJson);

}  // namespace tapdiffgen::core

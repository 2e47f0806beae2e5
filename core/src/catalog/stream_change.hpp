// A stream's table described again while the run goes on: the stream's new definition, and
// what cannot change under a running stream (its key). docs/schema-changes.md tells the whole.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "catalog/stream_definition.hpp"
#include "util/tap_error.hpp"

namespace tapdiffgen::core {

/// A change a running stream cannot follow, or a table that is gone; what() is one line that
/// names the table and the column.
class SchemaChangeError : public TapError {
public:
    explicit SchemaChangeError(const std::string& message) : TapError(ErrorKind::Data, message) {}
};

/// Whether `columns` describe the table as `stream` has it.
bool describesSameColumns(const StreamDefinition& stream,
                          const std::vector<ColumnDescription>& columns);

/// `stream` with its table's columns as described now: the same stream, key and settings, and
/// each column selected unless the catalog deselected it by name (so a new column of a selected
/// stream is selected). Throws SchemaChangeError when a key column is gone or holds another
/// kind of value now, or when a column takes a name tap-diffgen adds to every record.
StreamDefinition withColumns(const StreamDefinition& stream,
                             std::vector<ColumnDescription> columns);

/// What changed from `before` to `after`, for the log: "column 'c' added, column 'b' dropped,
/// column 'a' integer → text".
std::string changeText(const StreamDefinition& before, const StreamDefinition& after);

}  // namespace tapdiffgen::core

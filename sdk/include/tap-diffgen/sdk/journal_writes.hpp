// What a trigger writes into the diffgen table, read from the SQL text a catalog keeps of its
// body (a MySQL trigger's statement, a SQLite CREATE TRIGGER, a PostgreSQL function's source),
// for inspect_journal's journal triggers (TdgJournalTrigger).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tap-diffgen/sdk/sql_tokens.hpp"
#include "tap-diffgen/sdk/types.hpp"

namespace tapdiffgen::sdk {

struct JournalWrites {
    /// The text holds an INSERT (or REPLACE) into the diffgen table.
    bool writes = false;
    /// What those INSERTs write into diffgen.tablename, when every row of every one of them
    /// writes the same string literal there (`VALUES ('invoices', ...)`, `SELECT 'invoices',
    /// ...`, `SET tablename = 'invoices'`). Anything else (a variable, an expression, two
    /// names, an INSERT without a column list) leaves it unknown: the catalog does not tell.
    std::optional<std::string> journalName;
    /// The columns of the row that those INSERTs write into diffgen.table_id, in order: the
    /// NEW.col and OLD.col references of each table_id value (`NEW.id`, `JSON_ARRAY(NEW.a,
    /// NEW.b)`, `(to_jsonb(OLD."id") #>> '{}')`), when every value that references the row
    /// names the same columns in the same order; values that reference no row column (a
    /// variable, a TRUNCATE's select) do not count. Unknown when none does or they differ.
    std::optional<std::vector<std::string>> keyColumns;
};

/// Reads `tokens` for INSERTs into `diffgen`: a name the text qualifies must have diffgen's
/// schema when that is given; an unqualified one matches by name alone.
JournalWrites journalWritesOf(const std::vector<SqlToken>& tokens, const TableName& diffgen,
                              const SqlSpelling& spelling);

/// The same for SQL text.
JournalWrites journalWritesOf(std::string_view sql, const TableName& diffgen,
                              const SqlSpelling& spelling);

}  // namespace tapdiffgen::sdk

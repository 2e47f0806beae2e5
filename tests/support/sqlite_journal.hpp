// Journalling a table of a SQLite database the way packaging/diffgen/sqlite.sql tells users to:
// with the CREATE TRIGGER statements its view diffgen_triggers writes, so that the tests and
// benchmarks that write SQLite databases run the shipped triggers.
#pragma once

#include <sqlite3.h>

#include <string>

namespace tapdiffgen::testing {

/// Runs the statements diffgen_triggers holds for `table` on the open database `db`, whose
/// diffgen and view sqlite.sql made. Throws std::runtime_error with SQLite's message, or when
/// the view has no statement for `table` (no such table, or no primary key).
void journalSqliteTable(sqlite3* db, const std::string& table);

/// The same on the database file at `path`, through a connection of its own.
void journalSqliteTable(const std::string& path, const std::string& table);

}  // namespace tapdiffgen::testing

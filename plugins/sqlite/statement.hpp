// Prepared statements and the runs of them. A Cursor resets its statement when it goes out of
// scope, also on an exception: SQLite keeps a read transaction open for as long as a statement
// is neither finished nor reset, and an open read would hold back writers' checkpoints (WAL)
// or their commits (rollback journal).
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "tap-diffgen/sdk/types.hpp"

namespace tapdiffgen::sqlite {

/// `table` as SQL: its name, schema-qualified when it has a schema, each part quoted.
std::string tableSql(const sdk::TableName& table);

/// "?4, ?5, ?6": `count` numbered placeholders from ?`first` on.
std::string placeholders(int first, size_t count);

class Statement {
public:
    /// Prepares `sql` on `db`; throws DriverError naming `context` when SQLite rejects it.
    Statement(sqlite3* db, const std::string& sql, const std::string& context);
    ~Statement();
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    sqlite3_stmt* handle() const { return statement_; }
    sqlite3* db() const { return db_; }
    const std::string& context() const { return context_; }

private:
    sqlite3* db_;
    sqlite3_stmt* statement_ = nullptr;
    std::string context_;
};

/// One run of a statement: bind, then next() through the rows.
class Cursor {
public:
    explicit Cursor(Statement& statement);
    ~Cursor();
    Cursor(const Cursor&) = delete;
    Cursor& operator=(const Cursor&) = delete;

    /// Parameters are 1-based, as in SQL ("?1").
    Cursor& bindInt64(int index, int64_t value);
    Cursor& bindText(int index, std::string_view value);
    Cursor& bindValue(int index, const sqlite3_value* value);
    Cursor& bindDouble(int index, double value);
    Cursor& bindBlob(int index, std::string_view bytes);

    /// Advances to the next row; false at the end. Throws DriverError on failure.
    bool next();

    sqlite3_stmt* row() const { return statement_.handle(); }
    /// SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT, SQLITE_BLOB or SQLITE_NULL.
    int storage(int column) const { return sqlite3_column_type(row(), column); }
    int64_t int64(int column) const { return sqlite3_column_int64(row(), column); }
    /// The value as UTF-8 text, valid until the next call on this cursor.
    std::string_view text(int column) const;

private:
    void checkBind(int code);

    Statement& statement_;
};

}  // namespace tapdiffgen::sqlite

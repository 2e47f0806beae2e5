// One server-side prepared statement, and the cursor that runs it. Rows are fetched one by one
// straight from the network (no mysql_stmt_store_result), so a result never has to fit in memory.
#pragma once

#include <mysql.h>

#include <string>
#include <vector>

#include "params.hpp"
#include "result_row.hpp"
#include "types.hpp"

namespace tapdiffgen::mysql {

class Session;

class Statement {
public:
    Statement(Session& session, std::string sql);
    ~Statement();
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    const std::string& sql() const { return sql_; }
    /// Its number of `?` placeholders.
    size_t placeholders() const { return mysql_stmt_param_count(stmt_); }
    /// Result columns as the server described them at the last prepare or execute.
    const std::vector<FieldInfo>& fields() const { return fields_; }
    bool busy() const { return busy_; }

private:
    friend class Cursor;

    void execute(Params& params);
    bool fetch();
    /// Discards unread rows so the connection can run the next statement; never throws.
    void finish() noexcept;
    void loadFields();
    [[noreturn]] void fail(const char* action) const;

    Session& session_;
    MYSQL_STMT* stmt_ = nullptr;
    std::string sql_;
    std::vector<FieldInfo> fields_;
    ResultRow row_;
    bool busy_ = false;
    bool rowsPending_ = false;
};

/// Executes a statement and reads its rows; whatever happens, the statement is left reusable.
class Cursor {
public:
    Cursor(Statement& statement, Params& params);
    ~Cursor();
    Cursor(const Cursor&) = delete;
    Cursor& operator=(const Cursor&) = delete;

    /// Advances to the next row; false at the end.
    bool next();
    ResultRow& row() { return statement_.row_; }
    const std::vector<FieldInfo>& fields() const { return statement_.fields_; }

private:
    Statement& statement_;
};

}  // namespace tapdiffgen::mysql

// Several statements sent at once in libpq's pipeline mode, their results read one statement
// after the other, so the server goes on to the next statement while the host is still consuming
// the rows of the one before.
//
// libpq holds a statement's whole result before handing over its first row, unless single-row
// mode is asked for, which costs a result object per row (11% of the tap's instructions in a
// 100,000-event run). So each statement says which it needs (result_widths.hpp).
#pragma once

#include <libpq-fe.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "session.hpp"
#include "statement.hpp"

namespace tapdiffgen::postgres {

/// One statement of a pipeline; `context` names it in errors ("reading table 'x'"). A
/// `reusable` one runs under the session's name for it, its Parse sent before it the first time.
struct PipelinedStatement {
    std::string sql;
    Params params;
    std::string context;
    bool reusable = false;
    /// Its rows are handed over one at a time (libpq's single-row mode).
    bool singleRow = false;
};

class PipelinedRows {
public:
    /// Sends every statement and a sync; throws DriverError.
    PipelinedRows(Session& session, std::vector<PipelinedStatement> statements);
    /// Reads what is left, whatever state the reads stopped in, and leaves pipeline mode, so
    /// the session is idle again.
    ~PipelinedRows();
    PipelinedRows(const PipelinedRows&) = delete;
    PipelinedRows& operator=(const PipelinedRows&) = delete;

    /// Moves on to the next statement's rows (the first, on the first call); false after the
    /// last. The previous statement's rows must all have been read.
    bool nextStatement();
    /// The current statement's next row; false at its end. Throws DriverError on its failure.
    bool next();
    /// Column type OIDs of the current statement, known after its first row.
    const std::vector<Oid>& columnTypes() const { return types_; }
    bool isNull(int column) const { return PQgetisnull(result_.get(), row_, column); }
    std::string_view value(int column) const;
    /// The current row's bytes of text, all columns together.
    size_t rowBytes() const;

private:
    void send();
    void readParse();
    bool nextResult();
    const std::string& context() const;
    void flushWithoutDeadlock();
    void finish() noexcept;
    void drain() noexcept;

    Session& session_;
    PGconn* connection_;
    std::vector<PipelinedStatement> statements_;
    std::vector<NamedStatements::Use> named_;  // per statement sent; an empty name: unnamed
    ResultPtr parseFailure_;  // the current statement's Parse failed: next() says so
    size_t sent_ = 0;
    size_t current_ = 0;  // 1-based: 0 before the first nextStatement()
    bool synced_ = false;
    bool statementDone_ = true;
    bool sawResult_ = false;  // the current statement has had a result
    ResultPtr result_;        // the current result's rows, once they have come
    int row_ = 0;             // the current one of them
    int rows_ = 0;
    std::vector<Oid> types_;
};

}  // namespace tapdiffgen::postgres

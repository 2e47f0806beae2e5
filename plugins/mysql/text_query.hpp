// Several SELECTs sent as one text query (the session has CLIENT_MULTI_STATEMENTS), their
// results read one after the other as they stream in. MariaDB's client cannot pipeline
// prepared statements, so a page's re-pulls over 64 tables were 64 round trips with the
// server idle between them; as one query they are one.
#pragma once

#include <mysql.h>

#include <string>
#include <string_view>
#include <vector>

#include "text_row.hpp"
#include "types.hpp"

namespace tapdiffgen::mysql {

class Session;

class MultiStatementQuery {
public:
    /// Sends `sql`, statements separated by ';'. Every value in it must be a validated integer
    /// or an escaped literal (appendKeyLiteral). Throws sdk::DriverError.
    MultiStatementQuery(Session& session, const std::string& sql, std::string_view context);
    /// Reads and drops whatever was not read, so that the connection can run its next command
    /// even after a failure midway.
    ~MultiStatementQuery();
    MultiStatementQuery(const MultiStatementQuery&) = delete;
    MultiStatementQuery& operator=(const MultiStatementQuery&) = delete;

    /// Moves to the next statement's result and returns its columns as the server describes
    /// them; throws when the statement failed or there is none (`context` names it).
    const std::vector<FieldInfo>& nextResult(std::string_view context);
    /// Points `row` at the current result's next row; false at its end.
    bool nextRow(TextRow& row, std::string_view context);

private:
    void freeResult() noexcept;

    Session& session_;
    MYSQL_RES* result_ = nullptr;
    bool started_ = false;
    std::vector<FieldInfo> fields_;
};

}  // namespace tapdiffgen::mysql

#include "text_query.hpp"

#include "session.hpp"
#include "tap-diffgen/sdk/errors.hpp"

namespace tapdiffgen::mysql {

MultiStatementQuery::MultiStatementQuery(Session& session, const std::string& sql,
                                         std::string_view context)
    : session_(session) {
    if (mysql_real_query(session_.handle(), sql.data(), static_cast<unsigned long>(sql.size())) !=
        0) {
        session_.failOnConnection(context);
    }
}

MultiStatementQuery::~MultiStatementQuery() {
    freeResult();
    MYSQL* mysql = session_.handle();
    while (mysql_more_results(mysql) && mysql_next_result(mysql) == 0) {
        if (MYSQL_RES* rest = mysql_use_result(mysql)) mysql_free_result(rest);
    }
}

void MultiStatementQuery::freeResult() noexcept {
    // For an unbuffered result this also reads and drops the rows still on the wire.
    if (result_ != nullptr) mysql_free_result(result_);
    result_ = nullptr;
}

const std::vector<FieldInfo>& MultiStatementQuery::nextResult(std::string_view context) {
    MYSQL* mysql = session_.handle();
    if (started_) {
        freeResult();
        int status = mysql_next_result(mysql);
        if (status > 0) session_.failOnConnection(context);
        if (status < 0) {
            throw sdk::DriverError(TDG_INTERNAL,
                                   std::string(context) + ": the query ended before this result");
        }
    }
    started_ = true;
    result_ = mysql_use_result(mysql);
    if (result_ == nullptr) {
        if (mysql_errno(mysql) != 0) session_.failOnConnection(context);
        throw sdk::DriverError(TDG_INTERNAL, std::string(context) + ": the statement has no rows");
    }
    fields_.clear();
    unsigned count = mysql_num_fields(result_);
    const MYSQL_FIELD* fields = mysql_fetch_fields(result_);
    for (unsigned i = 0; i < count; ++i) fields_.push_back(FieldInfo::from(fields[i]));
    return fields_;
}

bool MultiStatementQuery::nextRow(TextRow& row, std::string_view context) {
    session_.throwIfCancelled();
    MYSQL_ROW values = mysql_fetch_row(result_);
    if (values == nullptr) {
        if (mysql_errno(session_.handle()) != 0) session_.failOnConnection(context);
        return false;
    }
    row.attach(values, mysql_fetch_lengths(result_));
    return true;
}

}  // namespace tapdiffgen::mysql

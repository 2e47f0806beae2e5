#include "statement.hpp"

#include <errmsg.h>
#include <mysqld_error.h>

#include <memory>

#include "errors.hpp"
#include "session.hpp"

namespace tapdiffgen::mysql {
namespace {

struct MetadataDeleter {
    void operator()(MYSQL_RES* result) const { mysql_free_result(result); }
};

// Statements are generated (identifiers and placeholders only), so their text is safe to show;
// the long IN lists are cut so a message stays one readable line.
std::string excerpt(const std::string& sql) {
    constexpr size_t kLimit = 160;
    return sql.size() <= kLimit ? sql : sql.substr(0, kLimit) + "...";
}

}  // namespace

Statement::Statement(Session& session, std::string sql) : session_(session), sql_(std::move(sql)) {
    stmt_ = mysql_stmt_init(session_.handle());
    if (stmt_ == nullptr) session_.failOnConnection("creating a statement");
    if (mysql_stmt_prepare(stmt_, sql_.data(), static_cast<unsigned long>(sql_.size())) != 0) {
        try {
            fail("preparing");
        } catch (...) {
            mysql_stmt_close(stmt_);
            throw;
        }
    }
    loadFields();
}

Statement::~Statement() {
    finish();
    mysql_stmt_close(stmt_);
}

void Statement::fail(const char* action) const {
    session_.fail({mysql_stmt_errno(stmt_), mysql_stmt_sqlstate(stmt_), mysql_stmt_error(stmt_)},
                  std::string(action) + " " + excerpt(sql_));
}

void Statement::loadFields() {
    fields_.clear();
    std::unique_ptr<MYSQL_RES, MetadataDeleter> metadata(mysql_stmt_result_metadata(stmt_));
    if (!metadata) return;  // a statement without a result set
    unsigned count = mysql_num_fields(metadata.get());
    const MYSQL_FIELD* fields = mysql_fetch_fields(metadata.get());
    fields_.reserve(count);
    for (unsigned i = 0; i < count; ++i) fields_.push_back(FieldInfo::from(fields[i]));
}

void Statement::execute(Params& params) {
    if (mysql_stmt_param_count(stmt_) != params.size()) {
        throw sdk::DriverError(TDG_INTERNAL, "statement needs " +
                                                 std::to_string(mysql_stmt_param_count(stmt_)) +
                                                 " values, got " + std::to_string(params.size()));
    }
    if (params.size() > 0 && mysql_stmt_bind_param(stmt_, params.binds()) != 0) fail("binding");
    if (mysql_stmt_execute(stmt_) != 0) {
        unsigned code = mysql_stmt_errno(stmt_);
        if (code != CR_NEW_STMT_METADATA && code != ER_NEED_REPREPARE) fail("executing");
        // The table changed shape under a cached statement: prepare it afresh, once.
        if (mysql_stmt_prepare(stmt_, sql_.data(), static_cast<unsigned long>(sql_.size())) != 0) {
            fail("preparing again");
        }
        if (params.size() > 0 && mysql_stmt_bind_param(stmt_, params.binds()) != 0) {
            fail("binding");
        }
        if (mysql_stmt_execute(stmt_) != 0) fail("executing");
    }
    // Metadata again: the server re-prepares after DDL and may describe other types now.
    loadFields();
    rowsPending_ = !fields_.empty();
    if (rowsPending_) row_.bind(stmt_, fields_);
}

bool Statement::fetch() {
    if (!rowsPending_) return false;
    session_.throwIfCancelled();
    row_.prepareFetch();
    int status = mysql_stmt_fetch(stmt_);
    if (status == 0 || status == MYSQL_DATA_TRUNCATED) return true;
    if (status == MYSQL_NO_DATA) {
        rowsPending_ = false;
        return false;
    }
    fail("reading rows of");
}

void Statement::finish() noexcept {
    if (rowsPending_) {
        // Reads and drops what the server still sends; the connection is usable afterwards.
        mysql_stmt_reset(stmt_);
        rowsPending_ = false;
    }
    mysql_stmt_free_result(stmt_);
}

Cursor::Cursor(Statement& statement, Params& params) : statement_(statement) {
    if (statement_.busy_) {
        throw sdk::DriverError(TDG_INTERNAL,
                               "statement is already running: " + excerpt(statement_.sql_));
    }
    statement_.busy_ = true;
    try {
        statement_.execute(params);
    } catch (...) {
        statement_.finish();
        statement_.busy_ = false;
        throw;
    }
}

Cursor::~Cursor() {
    statement_.finish();
    statement_.busy_ = false;
}

bool Cursor::next() { return statement_.fetch(); }

}  // namespace tapdiffgen::mysql

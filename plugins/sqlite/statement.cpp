#include "statement.hpp"

#include <climits>

#include "errors.hpp"
#include "tap-diffgen/sdk/errors.hpp"
#include "tap-diffgen/sdk/values.hpp"

namespace tapdiffgen::sqlite {

std::string tableSql(const sdk::TableName& table) {
    return sdk::quoteTableName(table.schema, table.name, '"');
}

std::string placeholders(int first, size_t count) {
    std::string list;
    for (size_t i = 0; i < count; ++i) {
        if (i > 0) list += ", ";
        list += "?" + std::to_string(first + static_cast<int>(i));
    }
    return list;
}

Statement::Statement(sqlite3* db, const std::string& sql, const std::string& context)
    : db_(db), context_(context) {
    if (sql.size() > INT_MAX) throw sdk::invalidArgument(context + ": statement too long");
    int code = sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()),
                                  SQLITE_PREPARE_PERSISTENT, &statement_, nullptr);
    if (code != SQLITE_OK) {
        sdk::DriverError failure = sqliteError(db, code, context);
        sqlite3_finalize(statement_);
        throw failure;
    }
}

Statement::~Statement() { sqlite3_finalize(statement_); }

Cursor::Cursor(Statement& statement) : statement_(statement) {}

Cursor::~Cursor() {
    sqlite3_reset(statement_.handle());
    sqlite3_clear_bindings(statement_.handle());
}

void Cursor::checkBind(int code) {
    if (code != SQLITE_OK) throw sqliteError(statement_.db(), code, statement_.context());
}

Cursor& Cursor::bindInt64(int index, int64_t value) {
    checkBind(sqlite3_bind_int64(row(), index, value));
    return *this;
}

Cursor& Cursor::bindText(int index, std::string_view value) {
    // The length is passed, so keys with NUL bytes stay whole; a NULL pointer would bind SQL
    // NULL instead of the empty string.
    const char* data = value.data() != nullptr ? value.data() : "";
    checkBind(sqlite3_bind_text64(row(), index, data, value.size(), SQLITE_TRANSIENT, SQLITE_UTF8));
    return *this;
}

Cursor& Cursor::bindDouble(int index, double value) {
    checkBind(sqlite3_bind_double(row(), index, value));
    return *this;
}

Cursor& Cursor::bindBlob(int index, std::string_view bytes) {
    checkBind(sqlite3_bind_blob64(row(), index, bytes.data() != nullptr ? bytes.data() : "",
                                  bytes.size(), SQLITE_TRANSIENT));
    return *this;
}

Cursor& Cursor::bindValue(int index, const sqlite3_value* value) {
    checkBind(sqlite3_bind_value(row(), index, value));
    return *this;
}

bool Cursor::next() {
    int code = sqlite3_step(row());
    if (code == SQLITE_ROW) return true;
    if (code == SQLITE_DONE) return false;
    throw sqliteError(statement_.db(), code, statement_.context());
}

std::string_view Cursor::text(int column) const {
    const unsigned char* data = sqlite3_column_text(row(), column);
    if (data == nullptr) return {};
    int size = sqlite3_column_bytes(row(), column);
    return {reinterpret_cast<const char*>(data), static_cast<size_t>(size)};
}

}  // namespace tapdiffgen::sqlite

#include "support/sqlite_journal.hpp"

#include <memory>
#include <stdexcept>
#include <vector>

namespace tapdiffgen::testing {
namespace {

[[noreturn]] void fail(sqlite3* db, const std::string& doing) {
    throw std::runtime_error("sqlite: " + doing + ": " + sqlite3_errmsg(db));
}

std::vector<std::string> triggerStatements(sqlite3* db, const std::string& table) {
    sqlite3_stmt* raw = nullptr;
    if (sqlite3_prepare_v2(db,
                           "SELECT trigger_sql FROM diffgen_triggers WHERE table_name = ?1 "
                           "ORDER BY trigger_name",
                           -1, &raw, nullptr) != SQLITE_OK) {
        fail(db, "reading diffgen_triggers");
    }
    std::unique_ptr<sqlite3_stmt, decltype(&sqlite3_finalize)> query(raw, sqlite3_finalize);
    sqlite3_bind_text(raw, 1, table.c_str(), -1, SQLITE_TRANSIENT);
    std::vector<std::string> statements;
    int status;
    while ((status = sqlite3_step(raw)) == SQLITE_ROW) {
        statements.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(raw, 0)));
    }
    if (status != SQLITE_DONE) fail(db, "reading diffgen_triggers");
    if (statements.empty()) {
        throw std::runtime_error("diffgen_triggers has no trigger for table '" + table + "'");
    }
    return statements;
}

}  // namespace

void journalSqliteTable(sqlite3* db, const std::string& table) {
    for (const auto& statement : triggerStatements(db, table)) {
        if (sqlite3_exec(db, statement.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) {
            fail(db, "creating a trigger of " + table);
        }
    }
}

void journalSqliteTable(const std::string& path, const std::string& table) {
    sqlite3* raw = nullptr;
    const int opened = sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READWRITE, nullptr);
    std::unique_ptr<sqlite3, decltype(&sqlite3_close)> db(raw, sqlite3_close);
    if (opened != SQLITE_OK) fail(raw, "opening " + path);
    journalSqliteTable(raw, table);
}

}  // namespace tapdiffgen::testing

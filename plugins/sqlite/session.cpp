#include "session.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "errors.hpp"
#include "tap-diffgen/sdk/errors.hpp"

namespace tapdiffgen::sqlite {
namespace {

// Keyed by SQL text, the cache grows with the tables and fetch chunk sizes seen; past this it
// starts again rather than grow without bound over a long run.
constexpr size_t kMaxCachedStatements = 256;

// SQLite reports a missing file and an unreadable one alike (SQLITE_CANTOPEN).
void requireFile(const std::string& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) == 0) {
        if (S_ISDIR(info.st_mode)) {
            throw sdk::invalidArgument("SQLite database '" + path + "' is a directory");
        }
        return;
    }
    int error = errno;
    if (error == ENOENT || error == ENOTDIR) {
        throw sdk::notFound("SQLite database file '" + path + "' does not exist");
    }
    throw sdk::DriverError(error == EACCES ? TDG_UNAUTHORIZED : TDG_IO,
                           "SQLite database file '" + path + "': " + std::strerror(error));
}

}  // namespace

Session::Session(const Settings& settings, const sdk::CallCancel& cancel)
    : path_(settings.path), cancel_(cancel) {
    requireFile(path_);
    int code = sqlite3_open_v2(path_.c_str(), &db_, SQLITE_OPEN_READONLY, nullptr);
    if (code != SQLITE_OK) {
        sdk::DriverError failure =
            sqliteError(db_, code, "opening SQLite database '" + path_ + "'");
        sqlite3_close_v2(db_);
        throw failure;
    }
    try {
        configure(settings.busyTimeoutMs);
    } catch (...) {
        statements_.clear();
        sqlite3_close_v2(db_);
        throw;
    }
}

Session::~Session() {
    statements_.clear();
    sqlite3_close_v2(db_);
}

void Session::configure(int busyTimeoutMs) {
    sqlite3_extended_result_codes(db_, 1);
    sqlite3_busy_timeout(db_, busyTimeoutMs);
    std::string context = "opening SQLite database '" + path_ + "'";
    char* message = nullptr;
    int code = sqlite3_exec(db_, "PRAGMA query_only = 1", nullptr, nullptr, &message);
    sqlite3_free(message);
    if (code != SQLITE_OK) throw sqliteError(db_, code, context);
    // Opening is lazy: reading the schema now turns "not a database" into a connect error
    // rather than a failure of the first real query.
    Statement probe(db_, "SELECT count(*) FROM sqlite_master", context);
    Cursor cursor(probe);
    cursor.next();
}

bool Session::hasTable(const std::string& schema, const std::string& name) {
    return sqlite3_table_column_metadata(db_, schema.c_str(), name.c_str(), nullptr, nullptr,
                                         nullptr, nullptr, nullptr, nullptr) == SQLITE_OK;
}

void Session::interrupt() { sqlite3_interrupt(db_); }

std::shared_ptr<Statement> Session::prepare(const std::string& sql, const std::string& context) {
    cancel_.throwIfRequested(context);
    auto found = statements_.find(sql);
    if (found != statements_.end()) return found->second;
    auto statement = std::make_shared<Statement>(db_, sql, context);
    if (statements_.size() >= kMaxCachedStatements) statements_.clear();
    statements_.emplace(sql, statement);
    return statement;
}

}  // namespace tapdiffgen::sqlite

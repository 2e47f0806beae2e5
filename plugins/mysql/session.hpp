// One connection to the server: its MYSQL* handle, the session settings every read relies on
// (UTC, utf8mb4, autocommit, read-only), the cache of prepared statements, and cancellation.
#pragma once

#include <mysql.h>

#include <atomic>
#include <list>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "errors.hpp"
#include "settings.hpp"
#include "statement.hpp"
#include "tap-diffgen/sdk/call_cancel.hpp"
#include "tap-diffgen/sdk/host_log.hpp"
#include "tap-diffgen/sdk/types.hpp"
#include "tap-diffgen/sdk/unrepresentable.hpp"

namespace tapdiffgen::mysql {

class Session {
public:
    /// Connects and configures the session; throws sdk::DriverError. `cancel` is the
    /// driver's: the running call's cancel request.
    Session(Settings settings, sdk::HostLog log, const sdk::CallCancel& cancel);
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    MYSQL* handle() { return mysql_; }
    const std::string& serverInfo() const { return serverInfo_; }
    bool isMariadb() const { return serverInfo_.find("MariaDB") != std::string::npos; }
    /// The database named in the settings (empty when none): what unqualified names mean.
    const std::string& database() const { return settings_.database; }

    /// Runs one statement without a result through the text protocol; `context` names what it
    /// was for in the error.
    void execute(const char* sql, std::string_view context);
    /// Ends an explicit transaction after a failure; never throws (a connection too broken to
    /// roll back ends the transaction anyway).
    void endTransactionQuietly() noexcept;

    /// The prepared statement for `sql`, from the cache when it was prepared before.
    Statement& prepared(const std::string& sql);

    void throwIfCancelled() const {
        if (cancel_.requested()) throw sdk::DriverError(TDG_CANCELLED, "cancelled");
    }
    /// Thread-safe: asks the server to stop the running statement, from a second connection.
    void interrupt();

    [[noreturn]] void fail(const ClientFailure& failure, std::string_view context) const;
    /// fail() with the connection's own last error.
    [[noreturn]] void failOnConnection(std::string_view context) const;

    void warn(const std::string& message) const { log_.warn(message); }
    /// Values of this connection's reads that a column's kind cannot carry.
    sdk::UnrepresentableValues& unrepresentable() { return unrepresentable_; }

private:
    void connect();
    void requireTls();
    void configure();
    /// Runs `sql`, statements without results separated by ';', in one round trip.
    void runAll(const char* sql);
    /// Closes the least recently used statement not in use; false when every one is.
    bool evictIdleStatement();

    Settings settings_;
    sdk::HostLog log_;
    const sdk::CallCancel& cancel_;
    sdk::UnrepresentableValues unrepresentable_;
    MYSQL* mysql_ = nullptr;
    unsigned long threadId_ = 0;
    bool usesTls_ = false;
    std::string serverInfo_;

    // Most recently used first; statements are few (one per generated shape and size class).
    std::list<std::unique_ptr<Statement>> statements_;
    size_t cachedPlaceholders_ = 0;
    std::unordered_map<std::string, std::list<std::unique_ptr<Statement>>::iterator> bySql_;
};

}  // namespace tapdiffgen::mysql

// The MySQL side of the plugin tests (the shared side is plugins/support/plugin_probe.hpp): the
// built plugin loaded through the engine's loader, connections to the test database, and raw
// libmariadb connections (not the plugin's) for holding transactions open and for root work.
#pragma once

#include <mysql.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "plugins/support/plugin_probe.hpp"

namespace tapdiffgen::mytest {

/// The plugin under test (TDG_MYSQL_PLUGIN_PATH), loaded once.
std::shared_ptr<const core::Plugin> plugin();

/// A connection with the test database's settings, `extra` overriding or adding to them.
std::unique_ptr<core::DialectConnection> connect(const testing::DatabaseEnv& env,
                                                 const testing::PluginOptions& extra = {},
                                                 std::shared_ptr<testing::LogLines> log = nullptr);

/// The DialectError of connecting with the test database's settings and `extra`; fails the
/// test when the connection succeeds.
core::DialectError connectError(const testing::DatabaseEnv& env,
                                const testing::PluginOptions& extra);

/// `sql` with every "@T" replaced by `table`, so each test case works on tables of its own.
std::string withTable(std::string sql, const std::string& table);

/// A separate libmariadb connection for setup SQL kept on one session (open transactions).
class RawConnection {
public:
    /// As the test user over TCP.
    explicit RawConnection(const testing::DatabaseEnv& env);
    /// As root over the server's unix socket; nullopt when the socket is not reachable.
    static std::unique_ptr<RawConnection> admin();
    ~RawConnection();
    RawConnection(const RawConnection&) = delete;
    RawConnection& operator=(const RawConnection&) = delete;

    /// Runs one or more statements; throws std::runtime_error with the server's message.
    void exec(const std::string& sql);
    /// First column of every row of a single statement.
    std::vector<std::optional<std::string>> column(const std::string& sql);
    std::string scalar(const std::string& sql);

private:
    explicit RawConnection(MYSQL* mysql) : mysql_(mysql) {}
    MYSQL* mysql_;
};

/// The server's unix socket: TDG_TEST_MYSQL_SOCKET, else where tests/servers/mariadb.sh puts it.
/// Host "localhost" reaches the server through it (MYSQL_UNIX_PORT, set when the tests start).
std::string adminSocket();

}  // namespace tapdiffgen::mytest

/// Gets a root connection or leaves the test: fails in CI, skips with a message elsewhere.
#define TDG_REQUIRE_MYSQL_ADMIN(var)                                                      \
    auto var = ::tapdiffgen::mytest::RawConnection::admin();                              \
    if (!var) {                                                                           \
        if (::tapdiffgen::testing::ciMode()) FAIL("no root access over the unix socket"); \
        MESSAGE("SKIPPED: no root access over " << ::tapdiffgen::mytest::adminSocket());  \
        return;                                                                           \
    }

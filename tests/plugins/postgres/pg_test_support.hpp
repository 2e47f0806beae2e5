// The PostgreSQL side of the plugin tests (the shared side is plugins/support/plugin_probe.hpp):
// the built plugin loaded through the engine's loader, connections to the test database, and a
// second raw libpq session for holding transactions open.
#pragma once

#include <libpq-fe.h>

#include <memory>
#include <string>

#include "plugins/support/plugin_probe.hpp"

namespace tapdiffgen::pgtest {

/// The plugin under test (TDG_POSTGRES_PLUGIN_PATH), loaded once.
std::shared_ptr<const core::Plugin> plugin();

/// A connection with the test database's settings, `extra` overriding or adding to them.
std::unique_ptr<core::DialectConnection> connect(const testing::DatabaseEnv& env,
                                                 const testing::PluginOptions& extra = {},
                                                 std::shared_ptr<testing::LogLines> log = nullptr);

/// The DialectError of connecting with the test database's settings and `extra`; fails the
/// test when the connection succeeds.
core::DialectError connectFailure(const testing::DatabaseEnv& env,
                                  const testing::PluginOptions& extra);

/// A separate libpq session (not the plugin's) for transactions a test keeps open.
class RawSession {
public:
    explicit RawSession(const testing::DatabaseEnv& env);
    /// As the superuser over the server's unix socket (TDG_TEST_PG_SOCKET_DIR), to `database`;
    /// nullptr when the socket is not reachable.
    static std::unique_ptr<RawSession> admin(const std::string& database);
    ~RawSession();
    RawSession(const RawSession&) = delete;
    RawSession& operator=(const RawSession&) = delete;
    /// Runs `sql`; throws std::runtime_error on failure.
    void exec(const std::string& sql);
    /// Runs `sql` and returns its rows, every column in binary format; throws on failure.
    std::shared_ptr<PGresult> queryBinary(const std::string& sql);
    /// The first column of the first row as text; throws when there is no row.
    std::string scalar(const std::string& sql);

private:
    explicit RawSession(PGconn* connection) : connection_(connection) {}
    PGconn* connection_;
};

/// Rows of pg_stat_activity of this database's tap sessions in `state`.
int tapSessionsInState(const testing::DatabaseEnv& env, const std::string& state);

}  // namespace tapdiffgen::pgtest

/// Gets a superuser session to `database` or leaves the test: fails in CI, skips elsewhere.
#define TDG_REQUIRE_PG_ADMIN(var, database)                                               \
    auto var = ::tapdiffgen::pgtest::RawSession::admin(database);                         \
    if (!var) {                                                                           \
        if (::tapdiffgen::testing::ciMode()) FAIL("no superuser access over the socket"); \
        MESSAGE("SKIPPED: no superuser access (TDG_TEST_PG_SOCKET_DIR)");                 \
        return;                                                                           \
    }

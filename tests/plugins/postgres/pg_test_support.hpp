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
    ~RawSession();
    RawSession(const RawSession&) = delete;
    RawSession& operator=(const RawSession&) = delete;
    /// Runs `sql`; throws std::runtime_error on failure.
    void exec(const std::string& sql);
    /// Runs `sql` and returns its rows, every column in binary format; throws on failure.
    std::shared_ptr<PGresult> queryBinary(const std::string& sql);

private:
    PGconn* connection_;
};

/// Rows of pg_stat_activity of this database's tap sessions in `state`.
int tapSessionsInState(const testing::DatabaseEnv& env, const std::string& state);

}  // namespace tapdiffgen::pgtest

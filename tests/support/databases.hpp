// Test-side access to the throwaway PostgreSQL and MariaDB servers (tests/servers/). Tests use
// the databases' own C clients for setup SQL, so what the tap reads is checked against data
// written by something other than the tap.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tapdiffgen::testing {

struct DatabaseEnv {
    std::string dialect;  // "postgres" or "mysql"
    std::string host;
    std::string port;
    std::string user;
    std::string password;
    std::string database;

    /// The tap settings that reach this database, as (key, value) text pairs.
    std::vector<std::pair<std::string, std::string>> options() const;
    /// The same as a JSON object text (for config files), without the closing brace so
    /// callers can append more settings: `configPrefix() + R"(,"tables":[...]})"`.
    std::string configPrefix() const;
};

/// From TDG_TEST_PG_* / TDG_TEST_MYSQL_*; nullopt when not set (outside ctest).
std::optional<DatabaseEnv> postgresEnv();
std::optional<DatabaseEnv> mysqlEnv();
/// The second MariaDB, whose system time zone is east of UTC (TDG_TEST_MYSQL_EAST_*).
std::optional<DatabaseEnv> mysqlEastEnv();
/// CI=true: a database test that cannot find its server fails instead of skipping.
bool ciMode();

/// Runs one or more statements; throws std::runtime_error with the server's message.
void exec(const DatabaseEnv& env, const std::string& sql);
/// First column of every row as text ("NULL" → nullopt).
std::vector<std::optional<std::string>> queryColumn(const DatabaseEnv& env, const std::string& sql);
/// First column of the first row; throws when there is no row.
std::string queryScalar(const DatabaseEnv& env, const std::string& sql);

}  // namespace tapdiffgen::testing

/// Gets a database or leaves the test: fails in CI, skips with a visible message elsewhere.
#define TDG_REQUIRE_DATABASE(var, getter)                                                 \
    auto var##_optional = (getter);                                                       \
    if (!var##_optional) {                                                                \
        if (::tapdiffgen::testing::ciMode()) {                                            \
            FAIL(#getter " is not configured (TDG_TEST_* unset) but CI=true");            \
        }                                                                                 \
        MESSAGE("SKIPPED: " #getter " not configured; run through ctest to get servers"); \
        return;                                                                           \
    }                                                                                     \
    const ::tapdiffgen::testing::DatabaseEnv& var = *var##_optional

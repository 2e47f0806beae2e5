// The test CA and certificates tests/servers/*.sh make for both servers (TDG_TEST_TLS_*), and
// the check that the server under test offers TLS with them.
#pragma once

#include <optional>
#include <string>

#include "support/databases.hpp"

namespace tapdiffgen::testing {

struct TlsFiles {
    std::string ca;          // signed the servers' certificate (DNS:localhost only)
    std::string otherCa;     // an unrelated CA
    std::string clientCert;  // signed by `ca`, CN=tap
    std::string clientKey;
};

/// From TDG_TEST_TLS_*; nullopt when not set (outside ctest).
std::optional<TlsFiles> tlsFiles();

/// Why TLS tests cannot run against `env` (a file is missing, the server was started without
/// TLS), or "" when they can.
std::string tlsProblem(const TlsFiles& files, const DatabaseEnv& env);

}  // namespace tapdiffgen::testing

/// Gets the TLS files or leaves the test: fails in CI, skips with a visible message elsewhere;
/// fails whenever the files or the server's TLS are missing.
#define TDG_REQUIRE_TLS(var, db)                                                           \
    auto var##_optional = ::tapdiffgen::testing::tlsFiles();                               \
    if (!var##_optional) {                                                                 \
        if (::tapdiffgen::testing::ciMode()) FAIL("TDG_TEST_TLS_* are unset but CI=true"); \
        MESSAGE("SKIPPED: TDG_TEST_TLS_* not set; run through ctest to get the test CA");  \
        return;                                                                            \
    }                                                                                      \
    if (std::string problem = ::tapdiffgen::testing::tlsProblem(*var##_optional, db);      \
        !problem.empty()) {                                                                \
        FAIL(problem);                                                                     \
    }                                                                                      \
    [[maybe_unused]] const ::tapdiffgen::testing::TlsFiles& var = *var##_optional

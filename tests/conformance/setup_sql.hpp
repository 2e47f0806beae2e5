// Setup and teardown SQL go through an administrator's command-line client, never through the
// plugin: plugin sessions are read-only by contract.
#pragma once

#include <string>

namespace tapdiffgen::conformance {

/// Runs `command` with /bin/sh, `sql` on its stdin. Its output (a server's NOTICEs too) is
/// kept out of the report unless it fails: then CaseFailure names `what`, the exit status and
/// the command's messages.
void runSql(const std::string& command, const std::string& sql, const std::string& what);

/// The same, left running: the SQL is handed over at once and the command runs on while the
/// case goes on (a writer holding a transaction open). The destructor waits for it.
class BackgroundSql {
public:
    BackgroundSql(const std::string& command, const std::string& sql, std::string what);
    ~BackgroundSql();
    BackgroundSql(const BackgroundSql&) = delete;
    BackgroundSql& operator=(const BackgroundSql&) = delete;

    /// Waits for the command; throws CaseFailure when it failed.
    void finish();

private:
    std::string what_;
    int output_ = -1;
    int pid_ = -1;
};

}  // namespace tapdiffgen::conformance

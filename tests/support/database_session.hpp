// One connection of the application's own, through the database's native client, kept open
// across statements: for writers that run concurrently with the tap.
#pragma once

#include <memory>
#include <string>

#include "support/databases.hpp"

namespace tapdiffgen::testing {

class DatabaseSession {
public:
    explicit DatabaseSession(const DatabaseEnv& env);
    ~DatabaseSession();
    DatabaseSession(const DatabaseSession&) = delete;
    DatabaseSession& operator=(const DatabaseSession&) = delete;

    /// Runs one statement; throws std::runtime_error with the server's message.
    void run(const std::string& sql);
    /// The first column of the first row of `sql`'s result, as text ("" without rows).
    std::string value(const std::string& sql);

private:
    struct Native;
    std::unique_ptr<Native> native_;
};

}  // namespace tapdiffgen::testing

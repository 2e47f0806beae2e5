// A transaction kept open on its own connection, as a concurrent writer of the application
// would: its diffgen ids are allocated but invisible until commit.
#pragma once

#include <memory>
#include <string>

#include "support/database_session.hpp"

namespace tapdiffgen::testing {

class HeldTransaction {
public:
    /// Connects, begins, and runs `sql` inside the transaction.
    HeldTransaction(const DatabaseEnv& env, const std::string& sql);
    ~HeldTransaction();  // rolls back if still open

    void commit();
    void rollback();

private:
    std::unique_ptr<DatabaseSession> session_;
    void finish(const char* statement);
};

}  // namespace tapdiffgen::testing

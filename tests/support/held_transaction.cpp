#include "support/held_transaction.hpp"

namespace tapdiffgen::testing {

HeldTransaction::HeldTransaction(const DatabaseEnv& env, const std::string& sql)
    : session_(std::make_unique<DatabaseSession>(env)) {
    session_->run("BEGIN");
    session_->run(sql);
}

HeldTransaction::~HeldTransaction() {
    try {
        finish("ROLLBACK");
    } catch (...) {
    }
}

void HeldTransaction::commit() { finish("COMMIT"); }
void HeldTransaction::rollback() { finish("ROLLBACK"); }

void HeldTransaction::finish(const char* statement) {
    if (!session_) return;
    session_->run(statement);
    session_.reset();
}

}  // namespace tapdiffgen::testing

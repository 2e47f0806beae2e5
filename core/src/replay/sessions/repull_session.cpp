#include "replay/sessions/repull_session.hpp"

#include "replay/model/table_changed.hpp"

namespace tapdiffgen::core {

RepullSession::RepullSession(SessionWorker::Connect connect)
    : worker_(std::move(connect), "re-pulling rows on another session",
              "this session re-pulls every row itself") {}

bool RepullSession::start(const std::vector<FetchSpec>& fetches) {
    spool_.clear();
    // A table that changed under the read is the page's news, not this session's failure.
    return worker_.start([&fetches](DialectConnection& connection) {
        try {
            connection.fetchRowsMany(fetches);
        } catch (const DialectError& failure) {
            if (mayMeanTableChanged(failure)) throw TableChanged(failure);
            throw;
        }
    });
}

bool RepullSession::finish() {
    if (worker_.wait()) return true;
    spool_.clear();
    return false;
}

void RepullSession::abandon() {
    worker_.interrupt();
    try {
        worker_.wait();
    } catch (...) {
        // The emitter is unwinding from its own failure, which is the one to report.
    }
    spool_.clear();
}

}  // namespace tapdiffgen::core

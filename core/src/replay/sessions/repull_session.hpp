// Another session that re-pulls a share of a page's rows while the replay's own session
// re-pulls the rest, so two server processes, and two of the tap's threads rendering, work on
// one page. Its rows are rendered on its own thread into a spool, which the emitter writes
// after the shares before it: the output is the same, in the same order, as from one session.
// A session that fails has its share re-pulled on the replay's own session (SessionWorker); a
// read whose table changed (model/table_changed.hpp) is no failure of the session, and finish()
// throws it for the emitter.
#pragma once

#include <vector>

#include "plugin/dialect_connection.hpp"
#include "replay/sessions/session_worker.hpp"
#include "singer/record_spool.hpp"

namespace tapdiffgen::core {

class RepullSession {
public:
    explicit RepullSession(SessionWorker::Connect connect);

    /// Where the fetches handed to start() must render their rows.
    RecordSpool& spool() { return spool_; }

    /// False once the session has failed: its shares are this session's from then on.
    bool usable() { return worker_.usable(); }

    /// Starts `fetches` in the worker's thread, where their callbacks run; they must outlive
    /// finish(). False when the session has failed: nothing was started.
    bool start(const std::vector<FetchSpec>& fetches);
    /// Waits for the fetches: true when every one was read; false when the session failed,
    /// and the spool is then empty. Throws TableChanged when a fetch found its table changed.
    bool finish();
    /// Interrupts the fetches in flight and waits for them (the emitter is unwinding).
    void abandon();

private:
    RecordSpool spool_;
    // Last, so that it is gone (its job interrupted and over) before the spool it writes to.
    SessionWorker worker_;
};

/// The sessions besides the replay's own that a page's re-pulls are shared with.
using RepullSessions = std::vector<RepullSession*>;

}  // namespace tapdiffgen::core

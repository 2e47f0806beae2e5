// SIGINT and SIGTERM ask the sync to stop at the next safe point (a page boundary), where the
// last safe STATE is written and the tap exits 0. A handler only sets a flag: nothing else is
// safe inside a signal handler.
#pragma once

namespace tapdiffgen::core {

void installStopHandlers();
bool stopRequested();
/// Names the signal that asked to stop ("SIGTERM"), or nullptr.
const char* stopSignalName();
/// For tests: set or clear the flag as if a signal had come.
void requestStop(bool requested);

}  // namespace tapdiffgen::core

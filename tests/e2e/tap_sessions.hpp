// The server sessions of a running tap process, found by the client ports of its sockets, so
// that a test ends the tap's sessions and no other test's.
#pragma once

#include <set>
#include <string>

#include "dialect_fixture.hpp"

namespace tapdiffgen::testing {

/// The local TCP ports of the process's sockets (from /proc), i.e. its client connections.
std::set<int> clientPorts(int pid);

/// Ends the process's server sessions; returns how many.
int endSessionsOf(const DatabaseEnv& env, int pid);

/// Ends the process's newest server session once it has two or more; returns how many (0 or 1).
int endNewestSessionOf(const DatabaseEnv& env, int pid);

}  // namespace tapdiffgen::testing

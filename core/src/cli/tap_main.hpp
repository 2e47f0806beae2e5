// The tap's entry point: parses the command line and runs discovery, --about or a sync.
#pragma once

namespace tapdiffgen::core {

/// Returns the process exit code; never throws.
int tapMain(int argc, char** argv);

}  // namespace tapdiffgen::core

// Horizon marks for SQLite, where there is nothing to wait for.
//
// SQLite has one writer at a time per database file: a write transaction holds the file's write
// lock from its first write to its commit, and works on the newest committed state (WAL refuses
// a write on an older snapshot). So each writer takes its diffgen ids above every id committed
// before it, ids become visible in commit order, and whatever commits later can only add ids
// above the highest one a reader sees. A gap in a page's range is therefore final the moment it
// is read (a deleted diffgen row), never an id still in flight.
//
// The mark is not left all zero, because the engine takes an all-zero mark as "the driver
// cannot tell" and would hold every gap for horizon_settle_seconds; a constant mark makes it
// ask check_horizon, which answers final at once.
#pragma once

#include "tap-diffgen/dialect_abi.h"
#include "tap-diffgen/sdk/dialect_driver.hpp"

namespace tapdiffgen::sqlite {

/// The mark every page carries.
TdgHorizonMark singleWriterMark();

/// Final for a mark of this plugin; throws DriverError(TDG_INVALID_ARGUMENT) for any other.
sdk::HorizonState checkHorizon(const TdgHorizonMark& mark);

}  // namespace tapdiffgen::sqlite

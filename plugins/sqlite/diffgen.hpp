// The diffgen log: pages of events with the row count of their id range, and the highest id.
#pragma once

#include <cstdint>
#include <optional>

#include "session.hpp"
#include "tap-diffgen/sdk/event_page.hpp"
#include "tap-diffgen/sdk/types.hpp"
#include "tap-diffgen/sdk/unrepresentable.hpp"

namespace tapdiffgen::sqlite {

/// Events and the range row count from one SELECT, which SQLite runs as one read transaction,
/// so both come from the same snapshot.
void readDiffgenPage(Session& database, const sdk::PageRequest& request, sdk::EventPage& page,
                     sdk::UnrepresentableValues& warnings);

std::optional<int64_t> maxDiffgenId(Session& database, const sdk::TableName& diffgen);

}  // namespace tapdiffgen::sqlite

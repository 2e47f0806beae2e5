// The diffgen log: pages of events with the row count of their id range, the highest id and the
// log's bounds.
#pragma once

#include <cstdint>
#include <optional>

#include "session.hpp"
#include "tap-diffgen/sdk/event_page.hpp"
#include "tap-diffgen/sdk/journal_facts.hpp"
#include "tap-diffgen/sdk/types.hpp"
#include "tap-diffgen/sdk/unrepresentable.hpp"

namespace tapdiffgen::sqlite {

/// Events and the range row count from one SELECT, which SQLite runs as one read transaction,
/// so both come from the same snapshot.
void readDiffgenPage(Session& database, const sdk::PageRequest& request, sdk::EventPage& page,
                     sdk::UnrepresentableValues& warnings);

std::optional<int64_t> maxDiffgenId(Session& database, const sdk::TableName& diffgen);

/// min(id), max(id) and the id SQLite hands out next, in one statement.
sdk::JournalBounds journalBounds(Session& database, const sdk::TableName& diffgen);

}  // namespace tapdiffgen::sqlite

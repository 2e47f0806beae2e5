// The diffgen log: pages of events with their horizon mark, the highest id and the bounds, and
// the check that everything in flight when a mark was taken has finished.
#pragma once

#include <cstdint>
#include <optional>

#include "session.hpp"
#include "tap-diffgen/sdk/dialect_driver.hpp"
#include "tap-diffgen/sdk/event_page.hpp"
#include "tap-diffgen/sdk/types.hpp"

namespace tapdiffgen::postgres {

/// Events, the range row count and the mark, all from one statement and so one snapshot.
void readDiffgenPage(Session& session, const sdk::PageRequest& request, sdk::EventPage& page);

/// Events and the mark from one statement, without the range row count: the cheaper read for
/// a page that turns out to fill its id range (sdk::GaplessPageReader).
void readDiffgenPagePlain(Session& session, const sdk::PageRequest& request, sdk::EventPage& page);

std::optional<int64_t> maxDiffgenId(Session& session, const sdk::TableName& diffgen);

/// min(id), max(id) and the next id of the sequence behind diffgen.id, in one statement.
sdk::JournalBounds journalBounds(Session& session, const sdk::TableName& diffgen);

sdk::HorizonState checkHorizon(Session& session, const TdgHorizonMark& mark, TdgHorizonMark& next);

}  // namespace tapdiffgen::postgres

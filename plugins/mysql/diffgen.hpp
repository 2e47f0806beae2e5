// Reading the diffgen log: pages of events with the range count and horizon mark taken in the
// same read view, the highest id, and whether transactions that could still fill a gap are over.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "session.hpp"
#include "tap-diffgen/sdk/dialect_driver.hpp"

namespace tapdiffgen::mysql {

/// words[0] of every mark this driver hands out; words[1] is the server's clock (microseconds
/// since the epoch) when the page's statement started.
constexpr int64_t kMarkVersion = 1;

class DiffgenLog {
public:
    explicit DiffgenLog(Session& session) : session_(session) {}

    void readPage(const sdk::PageRequest& request, sdk::EventPage& page);
    std::optional<int64_t> maxId(const sdk::TableName& diffgen);
    sdk::HorizonState checkHorizon(const TdgHorizonMark& mark);

private:
    [[noreturn]] void horizonUnavailable(const std::string& reason);

    Session& session_;
    std::optional<std::string> horizonUnavailable_;
};

}  // namespace tapdiffgen::mysql

// Reading the diffgen log: pages of events with the range count and horizon mark taken in the
// same read view, the highest id, and whether transactions that could still fill a gap are over.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "horizon.hpp"
#include "params.hpp"
#include "session.hpp"
#include "statement.hpp"
#include "tap-diffgen/sdk/dialect_driver.hpp"
#include "tap-diffgen/sdk/gapless_page_reader.hpp"

namespace tapdiffgen::mysql {

class DiffgenLog {
public:
    explicit DiffgenLog(Session& session)
        : session_(session),
          horizon_(session),
          pageReader_([this](const sdk::PageRequest& request,
                             sdk::EventPage& page) { readPlainPage(request, page); },
                      [this](const sdk::PageRequest& request, sdk::EventPage& page) {
                          readFullPage(request, page);
                      }) {}
    // The page reader's reads point at this object.
    DiffgenLog(const DiffgenLog&) = delete;
    DiffgenLog& operator=(const DiffgenLog&) = delete;

    void readPage(const sdk::PageRequest& request, sdk::EventPage& page);
    std::optional<int64_t> maxId(const sdk::TableName& diffgen);
    sdk::HorizonState checkHorizon(const TdgHorizonMark& mark);

private:
    void readPlainPage(const sdk::PageRequest& request, sdk::EventPage& page);
    void readFullPage(const sdk::PageRequest& request, sdk::EventPage& page);
    static size_t nameSlots(const sdk::PageRequest& request);
    static Params eventParams(const sdk::PageRequest& request, size_t names, size_t more);
    /// Adds the events of a page statement's rows; false when no row carried the clock.
    bool readRows(Statement& statement, Params& params, sdk::EventPage& page);

    Session& session_;
    HorizonCheck horizon_;
    sdk::GaplessPageReader pageReader_;
};

}  // namespace tapdiffgen::mysql

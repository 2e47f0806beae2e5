// Reading the diffgen log: pages of events with the range count and horizon mark taken in the
// same read view, the highest id, and whether transactions that could still fill a gap are over.
#pragma once

#include <cstdint>
#include <map>
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
    /// min(id), max(id) and the id source's next id in one statement (and, the first time a
    /// session meets a log whose id DEFAULT is a MariaDB SEQUENCE, once more with the sequence).
    sdk::JournalBounds bounds(const sdk::TableName& diffgen);
    sdk::HorizonState checkHorizon(const TdgHorizonMark& mark);
    HorizonCheck& horizon() { return horizon_; }

private:
    void readPlainPage(const sdk::PageRequest& request, sdk::EventPage& page);
    void readFullPage(const sdk::PageRequest& request, sdk::EventPage& page);
    static size_t nameSlots(const sdk::PageRequest& request);
    static Params eventParams(const sdk::PageRequest& request, size_t names, size_t more);
    /// Adds the events of a page statement's rows; false when no row carried the clock.
    bool readRows(Statement& statement, Params& params, sdk::EventPage& page);

    // A SEQUENCE feeding a log's id, and whether this session may read it.
    struct IdSequence {
        sdk::TableName name;
        bool readable = true;
    };
    // min, max, AUTO_INCREMENT, the id column's DEFAULT, the sequence's next value, whether
    // the prune record exists, and its highest pruned id when it was read too.
    struct BoundsRow {
        sdk::JournalBounds bounds;
        std::optional<int64_t> autoIncrement;
        std::string idDefault;
        std::optional<int64_t> sequenceNext;
        bool recordExists = false;
    };
    BoundsRow readBounds(const sdk::TableName& diffgen, const sdk::TableName* sequence,
                         bool withRecord);
    BoundsRow readBoundsAndRecord(const sdk::TableName& diffgen, const sdk::TableName* sequence);

    Session& session_;
    HorizonCheck horizon_;
    // By the log's quoted name: its sequence, or none (as of this session's last look).
    std::map<std::string, std::optional<IdSequence>> idSequences_;
    // By the log's quoted name: whether its prune record is read with the bounds (as of this
    // session's last look).
    std::map<std::string, bool> readsRecord_;
    sdk::GaplessPageReader pageReader_;
};

}  // namespace tapdiffgen::mysql

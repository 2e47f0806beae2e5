// What one diffgen page asks for, after dedup: per stream, the latest event of every row. Only
// that event drives the output (an insert then a delete in one page is one tombstone).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "keys/key_spec.hpp"
#include "keys/row_key.hpp"
#include "plugin/dialect_connection.hpp"
#include "replay/scan/key_index.hpp"
#include "replay/scan/stream_set.hpp"
#include "util/tap_error.hpp"

namespace tapdiffgen::core {

/// A diffgen row that cannot be replayed (unknown op, NULL table_id; an unreadable key, at the
/// end of the run whose stream it stopped).
class BadEventError : public TapError {
public:
    BadEventError(int64_t id, const std::string& message)
        : TapError(ErrorKind::Data, message), id_(id) {}
    int64_t id() const { return id_; }
    std::string line() const override {
        return std::string(what()) +
               " (set on_bad_event to 'skip' to skip such rows with a warning)";
    }

private:
    int64_t id_;
};

/// The event that drives one row's output.
struct DrivingEvent {
    int64_t id = 0;
    char op = 0;
    RowKey key;
    std::string_view tsCreated;  // ISO 8601 with offset; points into the planned EventPage
};

/// Hashes std::string and std::string_view alike, so a map keyed by std::string is searched
/// with a view and no string is built per lookup.
struct TransparentStringHash {
    using is_transparent = void;
    size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
};

/// How each stream reads its key, for dedup.
struct StreamKeyRule {
    /// Shared with the stream's definition, which a page planned on another thread may outlive.
    std::shared_ptr<const KeySpec> key;
    /// Only deletions count (mode tombstones_only): a row's latest insert or update is dropped.
    bool tombstonesOnly = false;
    /// The stream's name, for messages.
    std::string streamName;
};

/// Where a stream's replay has to stop: the first event of the page whose key the stream
/// cannot read. Its earlier events are planned; it and every later one are not.
struct StreamStop {
    int64_t eventId = 0;
    /// One line naming the stream, the id, the column, its type and the journalled text.
    std::string message;
};

/// The latest event of every row a page touched, in log order. Each one is a claim about the
/// row to verify by reading it again: an insert or update is emitted as the row read now, and
/// so is a delete whose row exists now (a key shifted or swapped inside one statement journals
/// `d` for keys that still exist), while a row that is gone becomes a tombstone.
struct StreamPlan {
    std::vector<DrivingEvent> events;

    /// Indexes events by key, for findEvent(); called once events are complete.
    void indexEvents();
    /// The position in events of the event whose canonical key is `key`, or KeyIndex::npos.
    size_t findEvent(std::string_view key) const {
        return eventIndex_.find(
            key, [this](size_t i) { return std::string_view(events[i].key.canonical()); });
    }

private:
    KeyIndex eventIndex_;
};

/// What differs when a range is read again for the events that committed late.
struct LateRead {
    /// Ids already handled (sorted): their events are left out.
    std::reference_wrapper<const std::vector<int64_t>> seenIds;
};

/// The streams pages are planned for, by index: each one's key rule and the journal name
/// (diffgen.tablename) its events carry.
class PageStreams {
public:
    /// Adds the stream of index size().
    void add(const std::string& journalName, StreamKeyRule rule);
    size_t size() const { return rules_.size(); }
    const StreamKeyRule& rule(size_t stream) const { return rules_[stream]; }
    /// The stream whose events carry `journalName`, or nullopt (events of other tables).
    std::optional<size_t> streamOf(std::string_view journalName) const;

private:
    std::unordered_map<std::string, size_t, TransparentStringHash, std::equal_to<>> byJournalName_;
    std::vector<StreamKeyRule> rules_;
};

class PagePlan {
public:
    struct Options {
        /// The streams this page was read for; events of the others are left out (a page read
        /// for some streams only).
        StreamSet readFor;
        /// A bad event is a warning instead of a BadEventError.
        bool skipBadEvents = false;
        /// A range read again once its late commits are final (nullopt for a first read).
        std::optional<LateRead> late;
    };

    /// The plan points into `page`, which must outlive it, as must `streams`.
    PagePlan(const EventPage& page, const PageStreams& streams, const Options& options);

    /// Plans indexed by stream; empty for streams with no event in the page.
    const std::vector<StreamPlan>& streams() const { return plans_; }
    /// Per stream: where it stops, for a key it cannot read (with on_bad_event 'fail').
    const std::vector<std::optional<StreamStop>>& stops() const { return stops_; }
    size_t eventsConsidered() const { return considered_; }
    size_t eventsSkipped() const { return skipped_; }

private:
    /// The key `event` drives, or nullopt for a bad event (thrown, or counted as skipped).
    std::optional<RowKey> keyOf(const TdgEvent& event, const StreamKeyRule& rule, size_t stream,
                                const Options& options);
    /// Moves a stream's events that are not superseded into `plan`.
    static void keepLatest(std::vector<DrivingEvent>& events, bool tombstonesOnly,
                           StreamPlan& plan);

    std::vector<StreamPlan> plans_;
    std::vector<std::optional<StreamStop>> stops_;
    size_t considered_ = 0;
    size_t skipped_ = 0;
};

}  // namespace tapdiffgen::core

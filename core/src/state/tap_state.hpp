// The Singer STATE value and its bookmarks.
//
// Shape: {"bookmarks":{"<stream>":{"replication_key":"diffgen_id","replication_key_value":N}}}
// N is the stream's safe diffgen id: every diffgen event with id <= N for the stream's table
// has been emitted, and no id <= N can still appear (see replay/scan/horizon_tracker.hpp). A state
// without "replication_key" (older or hand-written) is accepted. While the stream's table is
// being snapshotted, its bookmark also says how far the snapshot got:
//   "snapshot":{"since_diffgen_id":M,"after_key":["4711"],"rows":120000}
// (replay/sync/table_snapshot.hpp). Other members of a bookmark object, and the bookmarks of
// streams that are not configured, are carried through unchanged, so removing a table for a
// while does not lose its place and another tool's notes survive. The state never grows with
// the log or the tables: one small object per stream.
#pragma once

#include <Poco/Dynamic/Var.h>
#include <Poco/JSON/Object.h>

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "util/tap_error.hpp"

namespace tapdiffgen::core {

/// Where an unfinished snapshot of a stream stands.
struct SnapshotPosition {
    /// The diffgen id its stream replays from while the table is read: every change after it
    /// is replayed, every row is read.
    int64_t sinceId = 0;
    /// The key of the last row emitted, one text per key column in key order (integers as
    /// their digits, bytes in lowercase hex, other values as their text); empty before the
    /// first chunk.
    std::vector<std::string> afterKey;
    /// Rows emitted so far, over every run of this snapshot (for its progress).
    int64_t rows = 0;

    bool operator==(const SnapshotPosition& other) const = default;
};

/// A state that cannot be used; what() is one line naming the problem.
class StateError : public TapError {
public:
    explicit StateError(const std::string& message) : TapError(ErrorKind::Configuration, message) {}
};

class TapState {
public:
    static constexpr const char* kReplicationKey = "diffgen_id";

    /// Parses a state document. `source` names it in messages (a file path). Bookmarks of the
    /// configured streams are checked; others are kept verbatim.
    static TapState parse(const std::string& jsonText, const std::string& source,
                          const std::vector<std::string>& configuredStreams);
    /// Reads and parses a file; throws StateError naming it.
    static TapState load(const std::string& path,
                         const std::vector<std::string>& configuredStreams);

    std::optional<int64_t> bookmark(const std::string& stream) const;
    void setBookmark(const std::string& stream, int64_t diffgenId);
    /// Forgets a stream's bookmark and snapshot: the stream starts again as one that has none.
    void dropBookmark(const std::string& stream) {
        bookmarks_.erase(stream);
        snapshots_.erase(stream);
    }

    /// The stream's unfinished snapshot, if any (only a stream with a bookmark has one).
    std::optional<SnapshotPosition> snapshot(const std::string& stream) const;
    void setSnapshot(const std::string& stream, SnapshotPosition position);
    /// The snapshot is done: the bookmark alone says where the stream stands.
    void clearSnapshot(const std::string& stream) { snapshots_.erase(stream); }

    /// The STATE value as compact JSON, streams in name order.
    std::string toJson() const;
    bool empty() const { return bookmarks_.empty() && foreign_.empty(); }

private:
    static TapState fromDocument(const Poco::Dynamic::Var& root, const std::string& source,
                                 const std::vector<std::string>& configuredStreams);
    /// Takes a configured stream's snapshot and the members it does not know from `bookmark`.
    void readOtherMembers(const std::string& stream, const Poco::JSON::Object::Ptr& bookmark,
                          const std::string& source);
    std::string bookmarkJson(const std::string& stream, int64_t id) const;

    std::map<std::string, int64_t> bookmarks_;
    std::map<std::string, SnapshotPosition> snapshots_;
    // A configured stream's bookmark members of no meaning here, as JSON members (`"k":v,...`).
    std::map<std::string, std::string> otherMembers_;
    std::map<std::string, std::string> foreign_;  // other streams' bookmark objects, as JSON
};

}  // namespace tapdiffgen::core

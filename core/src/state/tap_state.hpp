// The Singer STATE value and its bookmarks.
//
// Shape: {"bookmarks":{"<stream>":{"replication_key":"diffgen_id","replication_key_value":N}}}
// N is the stream's safe diffgen id: every diffgen event with id <= N for the stream's table
// has been emitted, and no id <= N can still appear (see replay/scan/horizon_tracker.hpp). A state
// without "replication_key" (older or hand-written) is accepted. Bookmarks of streams that are
// not configured are carried through unchanged, so removing a table for a while does not lose
// its place. The state never grows with the log: one small object per stream.
#pragma once

#include <Poco/Dynamic/Var.h>

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace tapdiffgen::core {

/// A state that cannot be used; what() is one line naming the problem.
class StateError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
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
    /// Forgets a stream's bookmark: the stream starts again as one that has none.
    void dropBookmark(const std::string& stream) { bookmarks_.erase(stream); }

    /// The STATE value as compact JSON, streams in name order.
    std::string toJson() const;
    bool empty() const { return bookmarks_.empty() && foreign_.empty(); }

private:
    static TapState fromDocument(const Poco::Dynamic::Var& root, const std::string& source,
                                 const std::vector<std::string>& configuredStreams);

    std::map<std::string, int64_t> bookmarks_;
    std::map<std::string, std::string> foreign_;  // other streams' bookmark objects, as JSON
};

}  // namespace tapdiffgen::core

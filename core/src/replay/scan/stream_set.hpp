// A set of a run's streams, by their index in the run's stream list: the streams a page is
// read for, a plan is made for, or a pending range holds back.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace tapdiffgen::core {

class StreamSet {
public:
    StreamSet() = default;
    /// An empty set of the streams 0 .. streamCount-1.
    explicit StreamSet(size_t streamCount) : member_(streamCount, false) {}
    /// The set of `streams` (ascending, each below streamCount).
    StreamSet(size_t streamCount, const std::vector<size_t>& streams) : StreamSet(streamCount) {
        for (size_t stream : streams) add(stream);
    }

    void add(size_t stream) {
        if (member_[stream]) return;
        member_[stream] = true;
        indices_.insert(std::upper_bound(indices_.begin(), indices_.end(), stream), stream);
    }
    bool contains(size_t stream) const { return stream < member_.size() && member_[stream]; }
    /// The members, ascending.
    const std::vector<size_t>& indices() const { return indices_; }
    size_t size() const { return indices_.size(); }
    bool empty() const { return indices_.empty(); }
    bool operator==(const StreamSet& other) const { return indices_ == other.indices_; }
    bool operator!=(const StreamSet& other) const { return !(*this == other); }

private:
    std::vector<bool> member_;
    std::vector<size_t> indices_;
};

}  // namespace tapdiffgen::core

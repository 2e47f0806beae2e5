// The key a snapshot's next chunk starts after: the key cells of the last row it wrote, kept
// between chunks, and the texts the stream's STATE keeps them as (state/tap_state.hpp), so that
// a later run starts after the same row.
//
// The plugin compares the key with the table's rows itself (TdgScanRequest.after_key), so the
// cells go back exactly as its row batches carried them: integers as integers, bytes as bytes,
// every other kind as its text. In the STATE an integer is its digits and bytes are lowercase
// hex; the key's column kinds (KeySpec) say how to read them back.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "keys/key_spec.hpp"
#include "tap-diffgen/dialect_abi.h"

namespace tapdiffgen::core {

class ChunkKey {
public:
    ChunkKey() = default;

    /// The key a STATE kept; throws StateError naming `stream` when a text cannot be a value
    /// of its column.
    static ChunkKey fromTexts(const std::vector<std::string>& texts, const KeySpec& key,
                              const std::string& stream);

    /// Copies the key of a row: the cells at `keyPositions`, in key order.
    void capture(const TdgCell* row, const std::vector<size_t>& keyPositions);

    bool empty() const { return values_.empty(); }
    /// The key as cells for a scan request; they point into this object, valid until it
    /// changes.
    std::vector<TdgCell> cells() const;
    /// The key as the STATE keeps it.
    std::vector<std::string> texts() const;
    /// The key for a log line: its texts as a JSON array.
    std::string display() const;

private:
    struct Value {
        TdgValueKind kind = TDG_KIND_NULL;
        int64_t i64 = 0;
        std::string bytes;  // the text of a text-carrying kind
    };
    std::vector<Value> values_;
};

}  // namespace tapdiffgen::core

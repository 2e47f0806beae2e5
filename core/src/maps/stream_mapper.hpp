// Runs one source stream's compiled maps on its rows: the row's cells are read as expression
// values only where an expression needs them, passed-through properties are rendered straight
// from the cells, and each output stream gets its own RECORD.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "keys/row_key.hpp"
#include "maps/stream_maps.hpp"
#include "singer/record_sink.hpp"
#include "tap-diffgen/dialect_abi.h"

namespace tapdiffgen::core::maps {

/// The input record's layout: the selected columns (as fetch_rows returns them), then the
/// metadata properties every record carries.
struct InputLayout {
    size_t columnCount = 0;
    /// A key column: where it stands among the properties, and the kind its values have.
    struct KeySlot {
        size_t slot;
        TdgValueKind kind;
    };
    std::vector<KeySlot> keySlots;  // the key's columns, in key order
    bool addDeletedAt = true;
};

class StreamMapper {
public:
    StreamMapper(SourceStream source, std::vector<OutputStream> outputs, InputLayout layout);

    const std::vector<OutputStream>& outputs() const { return outputs_; }

    /// Emits a live row's records; returns how many were written. Throws StreamMapError.
    uint64_t emitRow(RecordSink& writer, const TdgCell* cells, std::string_view tsCreated,
                     std::string_view timeExtracted);
    /// Emits a tombstone's records (never filtered out). Throws StreamMapError.
    uint64_t emitTombstone(RecordSink& writer, const RowKey& key, std::string_view tsCreated,
                           std::string_view deletedAt, std::string_view timeExtracted);

private:
    class Record;

    SourceStream source_;
    std::vector<std::string> names_;  // the input record's properties, by slot
    std::vector<OutputStream> outputs_;
    std::vector<std::vector<std::string>> prefixes_;  // per output: ,"name":
    InputLayout layout_;
    std::vector<TdgCell> cells_;
    std::vector<Value> computed_;
    std::vector<Value> values_;     // the current row's properties as values, when read
    std::vector<bool> valueReady_;  // parallel to values_
    Value record_;
    bool recordReady_ = false;
    std::string keyBuffer_;

    std::string jsonText_;

    uint64_t emit(RecordSink& writer, bool deleted, std::string_view timeExtracted);
    void writeFlattened(RecordSink& writer, const OutputStream& output,
                        const std::vector<std::string>& prefixes, RecordSource& record,
                        std::string_view timeExtracted);
    [[noreturn]] void failOn(const OutputStream& output, const std::string& property,
                             const std::string& expression, const std::string& problem) const;
};

/// A cell as an expression value (JSON documents parsed, timestamps as the tap writes them).
Value cellValue(const TdgCell& cell);

}  // namespace tapdiffgen::core::maps

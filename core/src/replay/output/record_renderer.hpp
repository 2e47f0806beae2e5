// Renders one stream's records straight into the output buffer: the member names are quoted
// once per run, each cell is written by its kind, and no value is copied on the way.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/stream_definition.hpp"
#include "keys/row_key.hpp"
#include "tap-diffgen/dialect_abi.h"

namespace tapdiffgen::core {

class RecordRenderer {
public:
    explicit RecordRenderer(const StreamDefinition& stream);

    /// The selected column names in the order fetch_rows returns them.
    const std::vector<std::string>& columnNames() const { return columnNames_; }
    /// The kind of each of columnNames(), as describe_table reported it.
    const std::vector<TdgValueKind>& columnKinds() const { return kinds_; }
    /// Where each key column stands among columnNames(), in key order.
    const std::vector<size_t>& keyPositions() const { return keyPositions_; }

    /// Record members for a live row (cells: one per selected column, in order).
    void appendRow(std::string& out, const TdgCell* cells, std::string_view tsCreated) const;
    /// Record members for a tombstone: the key's columns, every other selected column null,
    /// is_deleted true, and _sdc_deleted_at when enabled.
    void appendTombstone(std::string& out, const RowKey& key, std::string_view tsCreated,
                         std::string_view deletedAt) const;

private:
    std::vector<std::string> columnNames_;
    std::vector<std::string> memberPrefixes_;  // ,"name": (no comma for the first)
    std::vector<size_t> keyPositions_;
    std::vector<TdgValueKind> kinds_;  // per selected column
    bool addDeletedAt_ = true;

    void appendMetadata(std::string& out, bool deleted, std::string_view tsCreated,
                        std::string_view deletedAt) const;
};

}  // namespace tapdiffgen::core

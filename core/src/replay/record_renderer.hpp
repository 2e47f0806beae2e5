// Renders one stream's records straight into the output buffer: the member names are quoted
// once per run, each cell is written by its kind, and no value is copied on the way.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/stream_definition.hpp"
#include "tap-diffgen/dialect_abi.h"

namespace tapdiffgen::core {

/// Writes one cell as a JSON value (see TdgValueKind for the text forms).
void appendCellJson(std::string& out, const TdgCell& cell);

class RecordRenderer {
public:
    explicit RecordRenderer(const StreamDefinition& stream);

    /// The selected column names in the order fetch_rows returns them.
    const std::vector<std::string>& columnNames() const { return columnNames_; }
    size_t keyIndex() const { return keyIndex_; }
    TdgValueKind keyKind() const { return keyKind_; }

    /// Record members for a live row (cells: one per selected column, in order).
    void appendRow(std::string& out, const TdgCell* cells, std::string_view tsCreated) const;
    /// Record members for a tombstone: the key (already normalised), every other selected
    /// column null, is_deleted true, and _sdc_deleted_at when enabled.
    void appendTombstone(std::string& out, std::string_view normalizedKey,
                         std::string_view tsCreated, std::string_view deletedAt) const;

private:
    std::vector<std::string> columnNames_;
    std::vector<std::string> memberPrefixes_;  // ,"name": (no comma for the first)
    size_t keyIndex_ = 0;
    TdgValueKind keyKind_ = TDG_KIND_TEXT;
    bool addDeletedAt_ = true;

    void appendMetadata(std::string& out, bool deleted, std::string_view tsCreated,
                        std::string_view deletedAt) const;
};

}  // namespace tapdiffgen::core

// Renders one stream's records straight into the output buffer: the member names are quoted
// once per run, each cell is written by its kind, and no value is copied on the way.
#pragma once

#include <cstdint>
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

    static constexpr size_t npos = SIZE_MAX;
    /// The first column whose cell in this fetched row does not fit the column as described: a
    /// value of another kind (NULL fits every column), or a DECIMAL with more decimals than the
    /// scale its schema declares (multipleOf). npos when the row fits. A row that does not fit was
    /// read from a table that changed after it was described; written, it would break its SCHEMA.
    size_t misfit(const TdgCell* cells) const;
    /// What misfit() found at `column`, for a message: "column 'a' holds a TEXT value where
    /// INT64 was described".
    std::string misfitText(const TdgCell* cells, size_t column) const;

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
    struct ScaledColumn {
        size_t position;
        int scale;
    };
    std::vector<ScaledColumn> scaled_;  // the DECIMAL columns whose schema has multipleOf
    bool addDeletedAt_ = true;

    void appendMetadata(std::string& out, bool deleted, std::string_view tsCreated,
                        std::string_view deletedAt) const;
};

}  // namespace tapdiffgen::core

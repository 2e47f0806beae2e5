// Turns each fetched value into its ABI cell: one codec per result column, chosen once per
// execution from the result metadata.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "result_row.hpp"
#include "tap-diffgen/sdk/row_batch_builder.hpp"
#include "types.hpp"

namespace tapdiffgen::mysql {

class CellWriter {
public:
    using JsonTest = std::function<bool(const std::string& column)>;

    /// Chooses the codecs; `isDeclaredJson` names the MariaDB JSON (LONGTEXT) columns.
    void prepare(const std::vector<FieldInfo>& fields, const JsonTest& isDeclaredJson);
    const FieldCodec& codec(size_t column) const { return codecs_[column]; }

    /// Adds every column of the current row, then ends the row.
    void writeRow(ResultRow& row, sdk::RowBatchBuilder& out);
    void writeCell(ResultRow& row, size_t column, sdk::RowBatchBuilder& out);

private:
    void writeInteger(ResultRow& row, size_t column, sdk::RowBatchBuilder& out);
    void writeBits(ResultRow& row, size_t column, sdk::RowBatchBuilder& out);
    void writeDecimalText(ResultRow& row, size_t column, sdk::RowBatchBuilder& out);
    void writeDate(const MYSQL_TIME& value, sdk::RowBatchBuilder& out);
    void writeDateTime(const MYSQL_TIME& value, TdgValueKind kind, sdk::RowBatchBuilder& out);

    std::vector<FieldCodec> codecs_;
    std::string scratch_;
};

/// Shortest text that reads back as the same float; empty for NaN and ±Infinity.
std::string formatFloat(float value);

/// Appends "YYYY-MM-DDTHH:MM:SS.ffffff" for a date and time; false (nothing appended) for a
/// zero date.
bool appendTimestamp(const MYSQL_TIME& value, std::string& out);

/// Appends the ABI's TIME text "[-]HH:MM:SS.ffffff" (hours may exceed 24).
void appendTime(const MYSQL_TIME& value, std::string& out);

}  // namespace tapdiffgen::mysql

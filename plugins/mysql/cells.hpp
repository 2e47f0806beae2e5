// Turns each fetched value into its ABI cell: one codec per result column, chosen once per
// execution from the result metadata. A row is a ResultRow (binary protocol) or a TextRow (text
// protocol); both give the same values, so both give the same cells.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "result_row.hpp"
#include "tap-diffgen/sdk/row_batch_builder.hpp"
#include "tap-diffgen/sdk/unrepresentable.hpp"
#include "text_row.hpp"
#include "types.hpp"

namespace tapdiffgen::mysql {

class CellWriter {
public:
    using JsonTest = std::function<bool(const std::string& column)>;

    explicit CellWriter(sdk::UnrepresentableValues& unrepresentable)
        : unrepresentable_(unrepresentable) {}

    /// Chooses the codecs; `isDeclaredJson` names the MariaDB JSON (LONGTEXT) columns, `table`
    /// names the table in warnings.
    void prepare(const std::vector<FieldInfo>& fields, const JsonTest& isDeclaredJson,
                 std::string table);
    const FieldCodec& codec(size_t column) const { return codecs_[column]; }
    /// Throws TDG_TABLE_CHANGED when a column reads as another kind than `kinds` (the host's
    /// description; empty: not given) says: the table changed since the host described it.
    void requireKinds(const std::vector<TdgValueKind>& kinds) const;

    /// Adds every column of the current row, then ends the row.
    template <typename Row>
    void writeRow(Row& row, sdk::RowBatchBuilder& out);
    template <typename Row>
    void writeCell(Row& row, size_t column, sdk::RowBatchBuilder& out);

private:
    template <typename Row>
    void writeInteger(Row& row, size_t column, sdk::RowBatchBuilder& out);
    template <typename Row>
    void writeBits(Row& row, size_t column, sdk::RowBatchBuilder& out);
    template <typename Row>
    void writeDecimalText(Row& row, size_t column, sdk::RowBatchBuilder& out);
    void writeDate(size_t column, const MYSQL_TIME& value, sdk::RowBatchBuilder& out);
    void writeDateTime(size_t column, const MYSQL_TIME& value, TdgValueKind kind,
                       sdk::RowBatchBuilder& out);
    /// Sends NULL and reports the column once (sdk/unrepresentable.hpp); no data is logged.
    void sendAsNull(size_t column, const char* problem, sdk::RowBatchBuilder& out);
    /// A float's or double's text, NULL (with the warning) for NaN and ±Infinity.
    void writeNumber(size_t column, const std::optional<std::string>& text,
                     sdk::RowBatchBuilder& out);

    sdk::UnrepresentableValues& unrepresentable_;
    std::string table_;
    std::vector<std::string> names_;
    std::vector<FieldCodec> codecs_;
    std::string scratch_;
};

/// Appends "YYYY-MM-DDTHH:MM:SS.ffffff" for a date and time; false (nothing appended) for a
/// zero date.
bool appendTimestamp(const MYSQL_TIME& value, std::string& out);

/// Appends the ABI's TIME text "[-]HH:MM:SS.ffffff" (hours may exceed 24).
void appendTime(const MYSQL_TIME& value, std::string& out);

}  // namespace tapdiffgen::mysql

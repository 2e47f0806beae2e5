// Server text → one cell of a row batch, per column conversion. Values the ABI cannot carry
// (NaN, infinity, BC dates) become NULL with one warning per column per read, so a bad column
// neither stops the tap nor floods its log.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "tap-diffgen/sdk/row_batch_builder.hpp"
#include "tap-diffgen/sdk/types.hpp"
#include "types.hpp"

namespace tapdiffgen::postgres {

/// A column as one read selects and converts it.
struct ColumnPlan {
    std::string name;
    Conversion conversion = Conversion::Text;
    Oid resultType = 0;
};

/// Columns already warned about during one read (a scan spans many statements).
using WarnedColumns = std::set<std::string>;

class CellWriter {
public:
    CellWriter(const sdk::ConnectOptions& options, std::string table,
               const std::vector<ColumnPlan>& columns, WarnedColumns& warned);

    /// Adds column `index`'s value (nullopt = SQL NULL) to `rows`.
    void write(size_t index, std::optional<std::string_view> text, sdk::RowBatchBuilder& rows);

private:
    void writeNumber(size_t index, std::string_view text, sdk::RowBatchBuilder& rows);
    void dropValue(size_t index, std::string_view text, sdk::RowBatchBuilder& rows);

    const sdk::ConnectOptions& options_;
    std::string table_;
    const std::vector<ColumnPlan>& columns_;
    WarnedColumns& warned_;
    std::string scratch_;
};

}  // namespace tapdiffgen::postgres

// Server text → one cell of a row batch, per column conversion. Values the ABI or the column's
// schema cannot carry (NaN, infinity, BC dates, the time 24:00:00, an array of more or fewer
// dimensions than its column declares) become NULL with one warning per column per read, so a
// bad column neither stops the tap nor floods its log.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "tap-diffgen/sdk/row_batch_builder.hpp"
#include "tap-diffgen/sdk/types.hpp"
#include "tap-diffgen/sdk/unrepresentable.hpp"
#include "types.hpp"

namespace tapdiffgen::postgres {

/// A column as one read selects and converts it.
struct ColumnPlan {
    std::string name;
    Conversion conversion = Conversion::Text;
    Oid resultType = 0;
    /// The dimensions an array's value must have (TypeMapping::arrayDimensions; 0: any).
    int arrayDimensions = 0;
};

class CellWriter {
public:
    CellWriter(sdk::UnrepresentableValues& unrepresentable, std::string table,
               const std::vector<ColumnPlan>& columns);

    /// Adds column `index`'s value (nullopt = SQL NULL) to `rows`.
    void write(size_t index, std::optional<std::string_view> text, sdk::RowBatchBuilder& rows);

private:
    void writeNumber(size_t index, std::string_view text, sdk::RowBatchBuilder& rows);
    /// Sends NULL and reports the column once (sdk/unrepresentable.hpp); no data is logged.
    void dropValue(size_t index, const char* problem, sdk::RowBatchBuilder& rows);

    sdk::UnrepresentableValues& unrepresentable_;
    std::string table_;
    const std::vector<ColumnPlan>& columns_;
    std::string scratch_;
};

}  // namespace tapdiffgen::postgres

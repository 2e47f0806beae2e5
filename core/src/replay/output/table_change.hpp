// A row that does not fit its table as the stream describes it (a cell of another kind, a number
// with more decimals than its column's scale) is a sign that the table changed: TableChanged
// (replay/model/table_changed.hpp), as for a read the plugin found changed.
#pragma once

#include <string>

#include "replay/model/table_changed.hpp"
#include "replay/output/record_renderer.hpp"

namespace tapdiffgen::core {

/// A row that does not fit its columns as `renderer` describes them comes from a table that
/// changed after it was described: TableChanged naming the table and the column.
inline void throwIfMisfit(const RecordRenderer& renderer, const std::string& tableName,
                          const TdgCell* cells) {
    if (const size_t column = renderer.misfit(cells); column != RecordRenderer::npos) {
        throw TableChanged("table '" + tableName + "': " + renderer.misfitText(cells, column));
    }
}

}  // namespace tapdiffgen::core

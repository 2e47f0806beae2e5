#include "replay/output/record_renderer.hpp"

#include <algorithm>

#include "keys/row_key.hpp"
#include "singer/cell_json.hpp"
#include "singer/json_text.hpp"

namespace tapdiffgen::core {

RecordRenderer::RecordRenderer(const StreamDefinition& stream)
    : addDeletedAt_(stream.addDeletedAt) {
    const std::vector<const ColumnDescription*> selected = stream.selectedColumns();
    for (const KeyColumn& key : stream.key.columns) {
        auto at =
            std::find_if(selected.begin(), selected.end(),
                         [&](const ColumnDescription* column) { return column->name == key.name; });
        keyPositions_.push_back(static_cast<size_t>(at - selected.begin()));
    }
    for (const ColumnDescription* column : selected) {
        kinds_.push_back(column->kind);
        std::string prefix = columnNames_.empty() ? "" : ",";
        appendJsonString(prefix, column->name);
        prefix.push_back(':');
        memberPrefixes_.push_back(std::move(prefix));
        columnNames_.push_back(column->name);
    }
}

void RecordRenderer::appendMetadata(std::string& out, bool deleted, std::string_view tsCreated,
                                    std::string_view deletedAt) const {
    out += deleted ? R"(,"is_deleted":true,"_sdc_diffgen_ts_created":)"
                   : R"(,"is_deleted":false,"_sdc_diffgen_ts_created":)";
    appendJsonString(out, tsCreated);
    if (!addDeletedAt_) return;
    out += R"(,"_sdc_deleted_at":)";
    if (deleted) {
        appendJsonString(out, deletedAt);
    } else {
        out += "null";
    }
}

void RecordRenderer::appendRow(std::string& out, const TdgCell* cells,
                               std::string_view tsCreated) const {
    for (size_t i = 0; i < memberPrefixes_.size(); ++i) {
        out += memberPrefixes_[i];
        if (cells[i].kind == TDG_KIND_NULL) {
            out += "null";
        } else {
            appendCellJson(out, cells[i]);
        }
    }
    appendMetadata(out, false, tsCreated, {});
}

void RecordRenderer::appendTombstone(std::string& out, const RowKey& key,
                                     std::string_view tsCreated, std::string_view deletedAt) const {
    for (size_t i = 0; i < memberPrefixes_.size(); ++i) {
        out += memberPrefixes_[i];
        auto position = std::find(keyPositions_.begin(), keyPositions_.end(), i);
        if (position == keyPositions_.end()) {
            out += "null";
        } else {
            appendKeyJson(out, kinds_[i],
                          key.column(static_cast<size_t>(position - keyPositions_.begin())));
        }
    }
    appendMetadata(out, true, tsCreated, deletedAt);
}

}  // namespace tapdiffgen::core

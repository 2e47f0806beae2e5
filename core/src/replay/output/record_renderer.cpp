#include "replay/output/record_renderer.hpp"

#include <algorithm>
#include <cstdlib>

#include "keys/row_key.hpp"
#include "singer/cell_json.hpp"
#include "singer/json_text.hpp"

namespace tapdiffgen::core {
namespace {

std::string_view text(const TdgCell& cell) { return {cell.data, static_cast<size_t>(cell.size)}; }

// The decimals a JSON number literal has ("1.500" 3, "15E-2" 2, "1.5e3" 0).
int decimalsOf(std::string_view number) {
    const size_t exponentAt = number.find_first_of("eE");
    const std::string_view mantissa = number.substr(0, exponentAt);
    const size_t dot = mantissa.find('.');
    int decimals = dot == std::string_view::npos ? 0 : static_cast<int>(mantissa.size() - dot - 1);
    if (exponentAt != std::string_view::npos) {
        decimals -= std::atoi(std::string(number.substr(exponentAt + 1)).c_str());
    }
    return std::max(decimals, 0);
}

const char* kindName(TdgValueKind kind) {
    static const char* const names[] = {"NULL", "BOOL", "INT64", "DECIMAL",   "TEXT",       "BYTES",
                                        "JSON", "DATE", "TIME",  "TIMESTAMP", "TIMESTAMPTZ"};
    return kind >= 0 && kind <= TDG_KIND_TIMESTAMPTZ ? names[kind] : "unknown";
}

}  // namespace

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
        // Only a scale the schema declares (multipleOf) is one a record could break.
        if (column->kind == TDG_KIND_DECIMAL && column->scale >= 0 &&
            column->jsonSchema.find("\"multipleOf\"") != std::string::npos) {
            scaled_.push_back({kinds_.size(), column->scale});
        }
        kinds_.push_back(column->kind);
        std::string prefix = columnNames_.empty() ? "" : ",";
        appendJsonString(prefix, column->name);
        prefix.push_back(':');
        memberPrefixes_.push_back(std::move(prefix));
        columnNames_.push_back(column->name);
    }
}

size_t RecordRenderer::misfit(const TdgCell* cells) const {
    for (size_t i = 0; i < kinds_.size(); ++i) {
        if (cells[i].kind != kinds_[i] && cells[i].kind != TDG_KIND_NULL) return i;
    }
    for (const ScaledColumn& column : scaled_) {
        const TdgCell& cell = cells[column.position];
        if (cell.kind == TDG_KIND_DECIMAL && decimalsOf(text(cell)) > column.scale) {
            return column.position;
        }
    }
    return npos;
}

std::string RecordRenderer::misfitText(const TdgCell* cells, size_t column) const {
    const std::string name = "column '" + columnNames_[column] + "'";
    if (cells[column].kind != kinds_[column]) {
        return name + " holds a " + kindName(cells[column].kind) + " value where " +
               kindName(kinds_[column]) + " was described";
    }
    return name + " holds a number with more decimals than its scale";
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

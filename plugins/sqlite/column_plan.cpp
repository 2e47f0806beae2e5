#include "column_plan.hpp"

#include <algorithm>

#include "tap-diffgen/sdk/errors.hpp"
#include "tap-diffgen/sdk/values.hpp"
#include "types.hpp"

namespace tapdiffgen::sqlite {
namespace {

const sdk::ColumnInfo* find(const std::vector<sdk::ColumnInfo>& described, std::string_view name) {
    auto found = std::find_if(described.begin(), described.end(),
                              [&](const sdk::ColumnInfo& column) { return column.name == name; });
    return found == described.end() ? nullptr : &*found;
}

std::string qualified(std::string_view name) {
    return std::string(kRowAlias) + "." + sdk::quoteIdentifier(name, '"');
}

}  // namespace

bool describesAll(const std::vector<sdk::ColumnInfo>& described,
                  const std::vector<std::string_view>& requested,
                  const std::vector<std::string_view>& keyColumns) {
    auto known = [&](std::string_view name) { return find(described, name) != nullptr; };
    return std::all_of(keyColumns.begin(), keyColumns.end(), known) &&
           std::all_of(requested.begin(), requested.end(), known);
}

SelectPlan planSelect(const std::vector<sdk::ColumnInfo>& described, const sdk::TableName& table,
                      const std::vector<std::string_view>& requested,
                      const std::vector<std::string_view>& keyColumns) {
    SelectPlan plan;
    plan.tableSql = sdk::quoteTableName(table.schema.value_or("main"), table.name, '"');
    std::string checks;
    int nextResultColumn = static_cast<int>(requested.size());
    for (std::string_view name : requested) {
        const sdk::ColumnInfo* column = find(described, name);
        if (column == nullptr) {
            throw sdk::notFound("column '" + std::string(name) + "' does not exist in table '" +
                                table.display() + "'");
        }
        ColumnPlan entry;
        entry.name = column->name;
        entry.kind = column->kind;
        entry.scale = column->scale;
        entry.uuid = columnTypeFor(column->sqlType).uuid;
        entry.table = table.display();
        if (!plan.selectList.empty()) plan.selectList += ", ";
        plan.selectList += qualified(column->name);
        if (column->kind == TDG_KIND_JSON) {
            entry.validColumn = nextResultColumn++;
            checks += ", json_valid(" + qualified(column->name) + ")";
        }
        plan.columns.push_back(std::move(entry));
    }
    std::vector<size_t> positions = sdk::keyPositions(requested, keyColumns);
    for (size_t position : positions) {
        plan.keyIndices.push_back(static_cast<int>(position));
        plan.keySql.push_back(qualified(plan.columns[position].name));
    }
    plan.selectList += checks;
    return plan;
}

}  // namespace tapdiffgen::sqlite

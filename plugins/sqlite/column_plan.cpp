#include "column_plan.hpp"

#include <algorithm>

#include "tap-diffgen/sdk/errors.hpp"
#include "tap-diffgen/sdk/values.hpp"

namespace tapdiffgen::sqlite {
namespace {

const sdk::ColumnInfo* find(const std::vector<sdk::ColumnInfo>& described, std::string_view name) {
    auto found = std::find_if(described.begin(), described.end(),
                              [&](const sdk::ColumnInfo& column) { return column.name == name; });
    return found == described.end() ? nullptr : &*found;
}

std::string quoted(std::string_view name) { return sdk::quoteIdentifier(name, '"'); }

}  // namespace

bool describesAll(const std::vector<sdk::ColumnInfo>& described,
                  const std::vector<std::string_view>& requested, std::string_view keyColumn) {
    return find(described, keyColumn) != nullptr &&
           std::all_of(requested.begin(), requested.end(),
                       [&](std::string_view name) { return find(described, name) != nullptr; });
}

SelectPlan planSelect(const std::vector<sdk::ColumnInfo>& described, const sdk::TableName& table,
                      const std::vector<std::string_view>& requested, std::string_view keyColumn) {
    SelectPlan plan;
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
        entry.where = "column '" + column->name + "' of table '" + table.display() + "'";
        if (!plan.selectList.empty()) plan.selectList += ", ";
        plan.selectList += quoted(column->name);
        if (column->kind == TDG_KIND_JSON) {
            entry.validColumn = nextResultColumn++;
            checks += ", json_valid(" + quoted(column->name) + ")";
        }
        if (column->name == keyColumn) plan.keyIndex = static_cast<int>(plan.columns.size());
        plan.columns.push_back(std::move(entry));
    }
    if (plan.keyIndex < 0) {
        throw sdk::invalidArgument("key column '" + std::string(keyColumn) +
                                   "' is not among the columns read from table '" +
                                   table.display() + "'");
    }
    plan.selectList += checks;
    return plan;
}

}  // namespace tapdiffgen::sqlite

#include "catalog/stream_change.hpp"

#include <algorithm>

namespace tapdiffgen::core {
namespace {

const StreamColumn* columnNamed(const std::vector<StreamColumn>& columns, const std::string& name) {
    auto found = std::find_if(columns.begin(), columns.end(),
                              [&](const StreamColumn& column) { return column.name == name; });
    return found == columns.end() ? nullptr : &*found;
}

std::string nameList(const std::vector<StreamColumn>& columns) {
    std::string names;
    for (const auto& column : columns) names += (names.empty() ? "" : ", ") + column.name;
    return names;
}

// The key's columns must be there, with the kind its keys are read as: the log's keys and the
// rows already emitted are keyed so.
void checkKey(const StreamDefinition& stream, const std::vector<StreamColumn>& columns) {
    for (const KeyColumn& key : stream.key.columns) {
        const StreamColumn* now = columnNamed(columns, key.name);
        if (now == nullptr) {
            throw SchemaChangeError("table '" + stream.tableName + "': key column '" + key.name +
                                    "' no longer exists (dropped or renamed while the tap ran; "
                                    "its columns now: " +
                                    nameList(columns) +
                                    "); set pk_column to its key and run again");
        }
        if (now->kind != key.kind || holdsUuids(*now) != key.caseInsensitive) {
            const StreamColumn* before = columnNamed(stream.columns, key.name);
            throw SchemaChangeError("table '" + stream.tableName + "': key column '" + key.name +
                                    "' changed its type from " +
                                    (before != nullptr ? before->sqlType : "?") + " to " +
                                    now->sqlType + " while the tap ran; run again to read it so");
        }
    }
}

std::string columnChange(const StreamColumn& before, const StreamColumn& after) {
    if (before.sqlType != after.sqlType) {
        return "column '" + after.name + "' " + before.sqlType + " → " + after.sqlType;
    }
    if (before.nullable != after.nullable) {
        return "column '" + after.name + "' " + (after.nullable ? "now nullable" : "now NOT NULL");
    }
    return "column '" + after.name + "' changed";
}

}  // namespace

bool describesSameColumns(const StreamDefinition& stream,
                          const std::vector<ColumnDescription>& columns) {
    return std::equal(
        stream.columns.begin(), stream.columns.end(), columns.begin(), columns.end(),
        [](const StreamColumn& a, const ColumnDescription& b) { return sameDescription(a, b); });
}

StreamDefinition withColumns(const StreamDefinition& stream,
                             std::vector<ColumnDescription> columns) {
    StreamDefinition changed = stream;
    changed.columns.clear();
    for (ColumnDescription& column : columns) {
        StreamColumn added{std::move(column)};
        added.selected = stream.key.contains(added.name) ||
                         std::find(stream.deselectedColumns.begin(), stream.deselectedColumns.end(),
                                   added.name) == stream.deselectedColumns.end();
        changed.columns.push_back(std::move(added));
    }
    checkKey(stream, changed.columns);
    if (const std::optional<std::string> reserved = reservedColumnOf(changed)) {
        throw SchemaChangeError("table '" + stream.tableName + "' has a column named '" +
                                *reserved + "' now, which tap-diffgen adds to every record");
    }
    return changed;
}

std::string changeText(const StreamDefinition& before, const StreamDefinition& after) {
    std::vector<std::string> changes;
    for (const StreamColumn& column : before.columns) {
        const StreamColumn* now = columnNamed(after.columns, column.name);
        if (now == nullptr) {
            changes.push_back("column '" + column.name + "' dropped");
        } else if (!sameDescription(column, *now)) {
            changes.push_back(columnChange(column, *now));
        }
    }
    for (const StreamColumn& column : after.columns) {
        if (columnNamed(before.columns, column.name) != nullptr) continue;
        changes.push_back("column '" + column.name + "' added" +
                          (column.selected ? "" : " (deselected by the catalog)"));
    }
    std::string text;
    for (const std::string& change : changes) text += (text.empty() ? "" : ", ") + change;
    return text;
}

}  // namespace tapdiffgen::core

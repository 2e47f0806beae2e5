#include "catalog.hpp"

#include <algorithm>
#include <cctype>

#include "key_codec.hpp"
#include "key_values.hpp"
#include "params.hpp"
#include "sql_text.hpp"
#include "statement.hpp"
#include "tap-diffgen/sdk/errors.hpp"
#include "text_query.hpp"
#include "text_row.hpp"

namespace tapdiffgen::mysql {

struct DescribedColumn {
    sdk::ColumnInfo info;
    CatalogType type;
};

namespace {

// The tables of one schema, at most this many a query: their columns with TABLE_NAME, and
// (MariaDB only: MySQL's CHECK_CONSTRAINTS has no TABLE_NAME, and MySQL has a real JSON type)
// the check clauses that mark a LONGTEXT column as JSON.
constexpr size_t kTablesPerStatement = 1000;

// "'schema' AND TABLE_NAME IN ('a', 'b')": the names as escaped literals. The catalog is read
// with text queries, both of them in one: as prepared statements they were a prepare and an
// execute each, four round trips where one does.
std::string schemaAndNames(MYSQL* connection, const std::string& schema,
                           const std::vector<std::string>& names) {
    return textLiteral(connection, schema) + " AND TABLE_NAME IN " + nameList(connection, names);
}

std::string catalogSql(MYSQL* connection, bool withChecks, const std::string& schema,
                       const std::vector<std::string>& names) {
    const std::string filter = schemaAndNames(connection, schema, names);
    std::string sql =
        "SELECT COLUMN_NAME, ORDINAL_POSITION, DATA_TYPE, COLUMN_TYPE, NUMERIC_PRECISION, "
        "NUMERIC_SCALE, IS_NULLABLE, COLUMN_KEY, TABLE_NAME FROM information_schema.COLUMNS "
        "WHERE TABLE_SCHEMA = " +
        filter + " ORDER BY TABLE_NAME, ORDINAL_POSITION";
    if (withChecks) {
        sql +=
            "; SELECT CHECK_CLAUSE, TABLE_NAME FROM information_schema.CHECK_CONSTRAINTS "
            "WHERE CONSTRAINT_SCHEMA = " +
            filter;
    }
    return sql;
}

std::string lowerWithoutSpaces(std::string_view text) {
    std::string out;
    for (char c : text) {
        if (!std::isspace(static_cast<unsigned char>(c))) {
            out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
        }
    }
    return out;
}

// The column a "json_valid(`col`)" clause checks, or empty. Column names are case-insensitive
// in MySQL, so the result is lower case.
std::string jsonValidTarget(std::string_view clause) {
    std::string text = lowerWithoutSpaces(clause);
    const std::string prefix = "json_valid(";
    if (text.size() <= prefix.size() + 1 || text.compare(0, prefix.size(), prefix) != 0 ||
        text.back() != ')') {
        return {};
    }
    std::string inner = text.substr(prefix.size(), text.size() - prefix.size() - 1);
    if (inner.size() >= 2 && inner.front() == '`' && inner.back() == '`') {
        inner = inner.substr(1, inner.size() - 2);
        std::string unquoted;
        for (size_t i = 0; i < inner.size(); ++i) {
            unquoted.push_back(inner[i]);
            if (inner[i] == '`' && i + 1 < inner.size() && inner[i + 1] == '`') ++i;
        }
        return unquoted;
    }
    return inner;
}

bool isTextFamily(const std::string& dataType) {
    return dataType == "longtext" || dataType == "mediumtext" || dataType == "text" ||
           dataType == "tinytext";
}

DescribedColumn describedFromRow(const TextRow& row) {
    DescribedColumn column;
    column.info.name = row.bytes(0);
    column.info.ordinal = static_cast<int>(row.int64(1));
    column.type.dataType = lowerCase(row.bytes(2));
    column.info.sqlType = row.bytes(3);
    column.type.columnType = lowerCase(column.info.sqlType);
    column.info.precision = row.isNull(4) ? -1 : static_cast<int>(row.int64(4));
    column.info.scale = row.isNull(5) ? -1 : static_cast<int>(row.int64(5));
    column.type.precision = column.info.precision;
    column.type.scale = column.info.scale;
    column.info.nullable = row.bytes(6) == "YES";
    column.info.primaryKey = row.bytes(7) == "PRI";
    return column;
}

void applyKind(DescribedColumn& column) {
    KindAndSchema mapped = classifyCatalogType(column.type);
    column.info.kind = mapped.kind;
    column.info.jsonSchema = std::move(mapped.jsonSchema);
    describeKeyUse(column.type, column.info);
}

}  // namespace

Catalog::Key Catalog::keyOf(const sdk::TableName& table) const {
    return {table.schema.value_or(session_.database()), table.name};
}

Catalog::Key Catalog::checkedKeyOf(const sdk::TableName& table) const {
    Key key = keyOf(table);
    if (key.first.empty()) {
        throw sdk::notFound("table '" + table.display() +
                            "' does not exist (no database: set 'database' or qualify the name)");
    }
    return key;
}

// One table is asked as many are, so that both read the catalog the same way.
std::vector<sdk::ColumnInfo> Catalog::describe(const sdk::TableName& table) {
    return std::move(describeMany({table}).front());
}

void Catalog::readMany(const std::string& schema, const std::vector<std::string>& names,
                       std::map<Key, std::vector<DescribedColumn>>& columns,
                       std::map<Key, std::set<std::string>>& json) {
    const bool withChecks = session_.isMariadb();
    const std::string context = "reading the columns of " + std::to_string(names.size()) +
                                " table(s) of schema '" + schema + "'";
    MultiStatementQuery query(session_, catalogSql(session_.handle(), withChecks, schema, names),
                              context);
    std::map<std::string, std::vector<DescribedColumn>> columnsByName;
    {
        TextRow row(query.nextResult(context));
        while (query.nextRow(row, context)) {
            columnsByName[row.bytes(8)].push_back(describedFromRow(row));
        }
    }
    std::map<std::string, std::set<std::string>> jsonByName;
    if (withChecks) {
        TextRow row(query.nextResult(context));
        while (query.nextRow(row, context)) {
            std::string target = jsonValidTarget(row.bytes(0));
            if (!target.empty()) jsonByName[row.bytes(1)].insert(target);
        }
    }
    for (const auto& name : names) {
        auto rows = rowsOfTable(columnsByName, name);
        if (rows.empty()) continue;
        columns[{schema, name}] = std::move(rows);
        json[{schema, name}] = rowsOfTable(jsonByName, name);
    }
}

std::vector<std::vector<sdk::ColumnInfo>> Catalog::describeMany(
    const std::vector<sdk::TableName>& tables) {
    for (const auto& table : tables) checkedKeyOf(table);
    std::map<Key, std::vector<DescribedColumn>> columns;
    std::map<Key, std::set<std::string>> json;
    for (const SchemaChunk& chunk : schemaChunks(tables)) {
        readMany(chunk.schema, chunk.names, columns, json);
    }
    std::vector<std::vector<sdk::ColumnInfo>> described;
    for (const auto& table : tables) {
        const Key key = keyOf(table);
        auto found = columns.find(key);
        if (found == columns.end()) {
            throw sdk::notFound("table '" + table.display() + "' does not exist");
        }
        described.push_back(remember(key, found->second, json[key]));
    }
    return described;
}

std::vector<SchemaChunk> Catalog::schemaChunks(const std::vector<sdk::TableName>& tables) const {
    std::map<std::string, std::set<std::string>> namesBySchema;
    for (const auto& table : tables) {
        Key key = keyOf(table);
        if (!key.first.empty()) namesBySchema[key.first].insert(key.second);
    }
    std::vector<SchemaChunk> chunks;
    for (const auto& [schema, names] : namesBySchema) {
        for (const auto& name : names) {
            if (chunks.empty() || chunks.back().schema != schema ||
                chunks.back().names.size() == kTablesPerStatement) {
                chunks.push_back({schema, {}});
            }
            chunks.back().names.push_back(name);
        }
    }
    return chunks;
}

std::string textLiteral(MYSQL* connection, const std::string& text) {
    std::string sql;
    appendTextLiteral(sql, connection, text, "the name '" + text + "'");
    return sql;
}

std::string nameList(MYSQL* connection, const std::vector<std::string>& names) {
    std::string sql = "(";
    for (size_t i = 0; i < names.size(); ++i) {
        if (i > 0) sql += ", ";
        appendTextLiteral(sql, connection, names[i], "the table name '" + names[i] + "'");
    }
    return sql + ")";
}

std::vector<sdk::ColumnInfo> Catalog::remember(const Key& key,
                                               std::vector<DescribedColumn> described,
                                               const std::set<std::string>& json) {
    Known& known = known_[key];
    known = Known{};
    std::vector<sdk::ColumnInfo> columns;
    for (DescribedColumn& column : described) {
        std::string name = lowerCase(column.info.name);
        known.columns.insert(name);
        column.type.declaredJson = isTextFamily(column.type.dataType) && json.count(name) > 0;
        if (column.type.declaredJson) known.json.insert(name);
        applyKind(column);
        columns.push_back(std::move(column.info));
    }
    return columns;
}

// Only text carried in BLOB-typed fields can be a MariaDB JSON column; a column the cache has
// not seen means the table was altered since it was read.
bool Catalog::mustRead(const Key& key, const std::vector<FieldInfo>& fields) const {
    if (!session_.isMariadb()) return false;
    bool candidates = std::any_of(fields.begin(), fields.end(), [](const FieldInfo& field) {
        return !field.isBinary() &&
               (field.type == MYSQL_TYPE_BLOB || field.type == MYSQL_TYPE_LONG_BLOB ||
                field.type == MYSQL_TYPE_MEDIUM_BLOB || field.type == MYSQL_TYPE_TINY_BLOB);
    });
    if (!candidates) return false;
    auto found = known_.find(key);
    return found == known_.end() ||
           std::any_of(fields.begin(), fields.end(), [&](const FieldInfo& field) {
               return found->second.columns.count(lowerCase(field.name)) == 0;
           });
}

void Catalog::learnJsonColumns(const std::vector<ResultColumns>& results) {
    std::vector<sdk::TableName> unread;
    std::set<Key> listed;
    for (const ResultColumns& result : results) {
        const Key key = keyOf(result.table);
        if (mustRead(key, result.fields) && listed.insert(key).second) {
            unread.push_back(result.table);
        }
    }
    if (!unread.empty()) describeMany(unread);
}

CellWriter::JsonTest Catalog::jsonColumns(const sdk::TableName& table,
                                          const std::vector<FieldInfo>& fields) {
    if (!session_.isMariadb()) return {};
    const Key key = keyOf(table);
    if (mustRead(key, fields)) describe(table);
    auto found = known_.find(key);
    if (found == known_.end()) return {};
    std::set<std::string> json = found->second.json;
    return [json = std::move(json)](const std::string& column) {
        return json.count(lowerCase(column)) > 0;
    };
}

std::optional<int64_t> Catalog::estimateRows(const sdk::TableName& table) {
    Params params;
    if (table.schema) {
        params.addText(*table.schema);
    } else {
        params.addNull();
    }
    params.addText(table.name);
    Cursor cursor(session_.prepared("SELECT TABLE_ROWS FROM information_schema.TABLES WHERE "
                                    "TABLE_SCHEMA = COALESCE(?, DATABASE()) AND TABLE_NAME = ?"),
                  params);
    if (!cursor.next() || cursor.row().isNull(0)) return std::nullopt;
    const uint64_t rows = cursor.row().uint64(0);
    return static_cast<int64_t>(std::min<uint64_t>(rows, INT64_MAX));
}

}  // namespace tapdiffgen::mysql

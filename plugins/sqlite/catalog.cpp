#include "catalog.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <memory>
#include <string_view>

#include "key_codec.hpp"
#include "statement.hpp"
#include "tap-diffgen/sdk/errors.hpp"
#include "tap-diffgen/sdk/values.hpp"
#include "types.hpp"

namespace tapdiffgen::sqlite {
namespace {

// table_xinfo's "hidden": 1 marks the hidden columns of a virtual table, which a plain
// SELECT * does not return; 2 and 3 are generated columns, which read like any other.
constexpr int kHiddenVirtualTableColumn = 1;

struct RawColumn {
    std::string name;
    std::string declared;
    bool notNull;
    int keyPosition;
};

bool isInteger(std::string_view declared) {
    auto sameLetter = [](char a, char b) {
        return std::toupper(static_cast<unsigned char>(a)) == static_cast<unsigned char>(b);
    };
    std::string_view integer = "INTEGER";
    return std::equal(declared.begin(), declared.end(), integer.begin(), integer.end(), sameLetter);
}

// Bound, not spliced: the pragma's table-valued form takes the names as parameters.
std::vector<RawColumn> readColumns(Session& database, const sdk::TableName& table) {
    std::string context = "describing table '" + table.display() + "'";
    std::string sql = "SELECT name, type, \"notnull\", pk, hidden FROM pragma_table_xinfo(?1" +
                      std::string(table.schema ? ", ?2" : "") + ") ORDER BY cid";
    auto statement = database.prepare(sql, context);
    Cursor cursor(*statement);
    cursor.bindText(1, table.name);
    if (table.schema) cursor.bindText(2, *table.schema);
    std::vector<RawColumn> columns;
    while (cursor.next()) {
        if (cursor.int64(4) == kHiddenVirtualTableColumn) continue;
        columns.push_back({std::string(cursor.text(0)), std::string(cursor.text(1)),
                           cursor.int64(2) != 0, static_cast<int>(cursor.int64(3))});
    }
    return columns;
}

// An INTEGER PRIMARY KEY is the rowid, never NULL; any other key column of a rowid table may
// hold NULL unless declared NOT NULL (a documented SQLite quirk).
bool isRowidAlias(const RawColumn& column, const std::vector<RawColumn>& all) {
    int keyColumns = 0;
    for (const RawColumn& other : all) keyColumns += other.keyPosition > 0 ? 1 : 0;
    return column.keyPosition == 1 && keyColumns == 1 && isInteger(column.declared);
}

sdk::ColumnInfo columnInfo(const RawColumn& raw, int ordinal, bool rowidAlias) {
    ColumnType type = columnTypeFor(raw.declared);
    sdk::ColumnInfo info;
    info.name = raw.name;
    info.ordinal = ordinal;
    info.kind = type.kind;
    info.sqlType = raw.declared;
    info.precision = type.precision;
    info.scale = type.scale;
    info.nullable = !raw.notNull && !rowidAlias;
    info.primaryKey = raw.keyPosition > 0;
    info.jsonSchema = type.kind == TDG_KIND_DECIMAL
                          ? sdk::jsonSchemaForDecimal(type.precision, type.scale)
                          : sdk::jsonSchemaForKind(type.kind, type.scale, type.uuid ? "uuid" : "");
    info.keySupport = keySupportOf(type.kind);
    return info;
}

}  // namespace

std::vector<sdk::ColumnInfo> describeTable(Session& database, const sdk::TableName& table) {
    std::vector<RawColumn> raw = readColumns(database, table);
    if (raw.empty()) {
        throw sdk::notFound("table '" + table.display() + "' does not exist in SQLite database '" +
                            database.path() + "'");
    }
    std::vector<sdk::ColumnInfo> columns;
    for (size_t i = 0; i < raw.size(); ++i) {
        columns.push_back(columnInfo(raw[i], static_cast<int>(i) + 1, isRowidAlias(raw[i], raw)));
    }
    return columns;
}

namespace {

// The first number of the table's sqlite_stat1 rows (every index's, and the table's own row
// when it has none, starts with the table's row count); nullopt before any ANALYZE.
std::optional<int64_t> analysedRows(Session& database, const sdk::TableName& table,
                                    const std::string& schema) {
    const std::string context = "estimating the rows of table '" + table.display() + "'";
    auto hasStatistics = database.prepare(
        "SELECT 1 FROM " + schema + ".sqlite_master WHERE name = 'sqlite_stat1'", context);
    Cursor probe(*hasStatistics);
    if (!probe.next()) return std::nullopt;
    auto statement = database.prepare(
        "SELECT stat FROM " + schema + ".sqlite_stat1 WHERE tbl = ?1 COLLATE NOCASE LIMIT 1",
        context);
    Cursor cursor(*statement);
    cursor.bindText(1, table.name);
    if (!cursor.next()) return std::nullopt;
    const std::string_view stat = cursor.text(0);
    int64_t rows = 0;
    auto parsed = std::from_chars(stat.data(), stat.data() + stat.size(), rows);
    if (parsed.ec != std::errc()) return std::nullopt;
    return rows;
}

}  // namespace

std::optional<int64_t> estimateRows(Session& database, const sdk::TableName& table) {
    const std::string schema = sdk::quoteIdentifier(table.schema.value_or("main"), '"');
    if (std::optional<int64_t> analysed = analysedRows(database, table, schema)) return analysed;
    // A WITHOUT ROWID table has no rowid: the statement then fails to prepare.
    std::shared_ptr<Statement> span;
    try {
        span = database.prepare("SELECT max(rowid) - min(rowid) + 1 FROM " + schema + "." +
                                    sdk::quoteIdentifier(table.name, '"'),
                                "estimating the rows of table '" + table.display() + "'");
    } catch (const sdk::DriverError&) {
        return std::nullopt;
    }
    Cursor cursor(*span);
    if (!cursor.next() || cursor.storage(0) == SQLITE_NULL) return 0;
    return cursor.int64(0);
}

}  // namespace tapdiffgen::sqlite

#include "diffgen.hpp"

#include <algorithm>
#include <string>

#include "horizon.hpp"
#include "statement.hpp"
#include "tap-diffgen/sdk/errors.hpp"
#include "tap-diffgen/sdk/values.hpp"
#include "timestamp_text.hpp"

namespace tapdiffgen::sqlite {
namespace {

// Fixed parameters of the page statement; the table names follow from ?4 on.
constexpr int kAfterParam = 1;
constexpr int kUpToParam = 2;
constexpr int kLimitParam = 3;
constexpr int kFirstTableParam = 4;

std::string tableSql(const sdk::TableName& table) {
    return sdk::quoteTableName(table.schema, table.name, '"');
}

std::string placeholders(int first, size_t count) {
    std::string list;
    for (size_t i = 0; i < count; ++i) {
        if (i > 0) list += ", ";
        list += "?" + std::to_string(first + static_cast<int>(i));
    }
    return list;
}

// COLLATE BINARY: the filter is exact and case-sensitive even when the log's tablename column
// was declared NOCASE. The count is an uncorrelated subquery, evaluated once per statement.
std::string pageSql(const sdk::TableName& diffgen, size_t tableCount) {
    std::string table = tableSql(diffgen);
    std::string page = "SELECT \"id\", \"tablename\", \"table_id\", \"op\", \"ts_created\" FROM " +
                       table + " WHERE \"id\" > ?1 AND \"id\" <= ?2" +
                       " AND \"tablename\" COLLATE BINARY IN (" +
                       placeholders(kFirstTableParam, tableCount) + ") ORDER BY \"id\" LIMIT ?3";
    std::string rangeCount = "SELECT count(*) FROM " + table +
                             " WHERE \"id\" > ?1 AND \"id\" <= (SELECT max(id) FROM page)";
    return "WITH page AS (" + page + ") SELECT id, tablename, table_id, op, ts_created, (" +
           rangeCount + ") FROM page ORDER BY id";
}

std::string context(const sdk::TableName& diffgen) {
    return "reading diffgen table '" + diffgen.display() + "'";
}

int64_t requireInteger(const Cursor& cursor, int column, const sdk::TableName& diffgen) {
    if (cursor.storage(column) != SQLITE_INTEGER) {
        throw sdk::DriverError(TDG_INVALID_DATA,
                               context(diffgen) + ": a diffgen id is not an integer");
    }
    return cursor.int64(column);
}

// ts_created as TIMESTAMPTZ text in UTC; empty (NULL) when it is no date and time.
std::string createdAt(const Cursor& cursor, const sdk::TableName& diffgen,
                      sdk::UnrepresentableValues& warnings) {
    std::string created;
    if (cursor.storage(4) == SQLITE_NULL) return created;
    if (cursor.storage(4) == SQLITE_TEXT && appendUtcTimestamp(cursor.text(4), created)) {
        return created + "+00:00";
    }
    warnings.sentAsNull(diffgen.display(), "ts_created",
                        "holds a value that is not a date and time");
    return {};
}

void addEvent(const Cursor& cursor, const sdk::TableName& diffgen, sdk::EventPage& page,
              sdk::UnrepresentableValues& warnings) {
    int64_t id = requireInteger(cursor, 0, diffgen);
    std::string_view op = cursor.text(3);
    char opCode = op.empty() ? '\0' : op[0];
    std::string tableName(cursor.text(1));
    std::string created = createdAt(cursor, diffgen, warnings);
    if (cursor.storage(2) == SQLITE_NULL) {
        page.add(id, opCode, tableName, nullptr, created);
        return;
    }
    std::string_view tableId = cursor.text(2);
    page.add(id, opCode, tableName, &tableId, created);
}

}  // namespace

void readDiffgenPage(Session& database, const sdk::PageRequest& request, sdk::EventPage& page,
                     sdk::UnrepresentableValues& warnings) {
    auto statement = database.prepare(pageSql(request.diffgen, request.tableNames.size()),
                                      context(request.diffgen));
    Cursor cursor(*statement);
    cursor.bindInt64(kAfterParam, request.afterId)
        .bindInt64(kUpToParam, request.upToId)
        .bindInt64(kLimitParam, std::max<int64_t>(request.limit, 0));  // negative: no limit
    for (size_t i = 0; i < request.tableNames.size(); ++i) {
        cursor.bindText(kFirstTableParam + static_cast<int>(i), request.tableNames[i]);
    }
    int64_t rangeRows = 0;  // an empty page covers an empty range
    while (cursor.next()) {
        addEvent(cursor, request.diffgen, page, warnings);
        rangeRows = cursor.int64(5);
    }
    page.setRangeRowCount(rangeRows);
    page.setMark(singleWriterMark());
}

std::optional<int64_t> maxDiffgenId(Session& database, const sdk::TableName& diffgen) {
    auto statement =
        database.prepare("SELECT max(\"id\") FROM " + tableSql(diffgen), context(diffgen));
    Cursor cursor(*statement);
    if (!cursor.next() || cursor.storage(0) == SQLITE_NULL) return std::nullopt;
    return requireInteger(cursor, 0, diffgen);
}

}  // namespace tapdiffgen::sqlite

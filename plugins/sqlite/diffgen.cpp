#include "diffgen.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include "horizon.hpp"
#include "journal.hpp"
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

namespace {

// Read from the schema table rather than the connection's schema cache, which does not see a
// record dropped by another connection until a statement reloads it.
bool pruneRecordExists(Session& database, const sdk::TableName& record) {
    auto statement = database.prepare("SELECT 1 FROM " + sdk::quoteIdentifier(*record.schema, '"') +
                                          ".sqlite_master WHERE type = 'table' AND name = ?1 "
                                          "COLLATE NOCASE",
                                      "looking up the prune record '" + record.display() + "'");
    Cursor cursor(*statement);
    cursor.bindText(1, record.name);
    return cursor.next();
}

}  // namespace

// min and max read the two ends of the id index. SQLite hands out a rowid one above the highest
// id, and for an AUTOINCREMENT table one above the highest it ever handed out as well
// (sqlite_sequence, which exists once the database has an AUTOINCREMENT table): that tells a
// log emptied by pruning (its ids go on) from one dropped and created again (they start anew).
// An id that is no rowid comes from the application: nothing to tell.
sdk::JournalBounds journalBounds(Session& database, const sdk::TableName& diffgen) {
    const std::string schema = diffgen.schema.value_or("main");
    const std::string table = tableSql(diffgen);
    const bool sequences = database.hasTable(schema, "sqlite_sequence");
    // The prune record (packaging/diffgen/sqlite.sql): <diffgen>_pruned in the log's schema.
    const sdk::TableName record{schema, diffgen.name + "_pruned"};
    const bool recorded = pruneRecordExists(database, record);
    const std::string sql =
        "SELECT (SELECT min(\"id\") FROM " + table + "), (SELECT max(\"id\") FROM " + table +
        "), " + kIdIsRowidSql + ", " +
        (sequences ? "(SELECT seq FROM " + sdk::quoteIdentifier(schema, '"') +
                         ".sqlite_sequence WHERE name = ?1 COLLATE NOCASE)"
                   : std::string("NULL")) +
        ", " +
        (recorded ? "(SELECT max(highest_pruned_id) FROM " + tableSql(record) + ")"
                  : std::string("NULL"));
    auto statement = database.prepare(sql, "reading the bounds of " + context(diffgen));
    Cursor cursor(*statement);
    cursor.bindText(1, diffgen.name).bindText(2, schema);
    sdk::JournalBounds bounds;
    if (!cursor.next()) return bounds;
    bounds.empty = cursor.storage(0) == SQLITE_NULL;
    if (!bounds.empty) {
        bounds.oldestId = requireInteger(cursor, 0, diffgen);
        bounds.newestId = requireInteger(cursor, 1, diffgen);
    }
    if (cursor.storage(4) != SQLITE_NULL) bounds.highestPrunedId = cursor.int64(4);
    if (cursor.int64(2) == 0) return bounds;
    const int64_t highest = std::max(bounds.empty ? 0 : bounds.newestId, cursor.int64(3));
    if (highest < INT64_MAX) bounds.nextId = std::max<int64_t>(highest, 0) + 1;
    return bounds;
}

}  // namespace tapdiffgen::sqlite

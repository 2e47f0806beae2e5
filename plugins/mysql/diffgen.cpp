#include "diffgen.hpp"

#include "cells.hpp"
#include "journal.hpp"
#include "params.hpp"
#include "sql_text.hpp"
#include "statement.hpp"
#include "tap-diffgen/sdk/values.hpp"

namespace tapdiffgen::mysql {
namespace {

// Result columns of the page statement.
enum PageColumn : size_t { kId, kTableName, kTableId, kOp, kTsCreated, kRangeRows, kNowMicros };

// How far past after_id the range count may look, in page sizes. Counting is only needed
// when the page's own events do not fill their id range (gaps, or events of tables not
// asked for); a range wider than this reports "cannot tell" instead of scanning further.
constexpr int64_t kCountSpanPages = 16;

// The events of a page, and `more` columns after them, from the diffgen table followed by
// `joined` (an alias and joined tables). Table names are compared as bytes: diffgen.tablename
// usually has a case-insensitive collation, and the filter must be exact.
std::string eventsSql(const std::string& diffgen, size_t names, const std::string& more = "",
                      const std::string& joined = "") {
    std::string filter = names == 0 ? "0 = 1"
                                    : "CAST(CONVERT(`tablename` USING utf8mb4) AS BINARY) IN (" +
                                          placeholders(names) + ")";
    return "SELECT `id`, `tablename`, CAST(`table_id` AS CHAR) AS table_id, `op`, `ts_created`" +
           more + " FROM " + diffgen + joined + " WHERE `id` > ? AND `id` <= ? AND " + filter +
           " ORDER BY `id` LIMIT ?";
}

const char* const kClockSql = "CAST(UNIX_TIMESTAMP(NOW(6)) * 1000000 AS SIGNED)";

// Both statements return (id, tablename, table_id, op, ts_created, range count, clock); each
// is one statement, so one read view, and NOW(6) is the statement's start.
//
// Plain: the events, each with the clock, no count. The clock comes from a one-row derived
// table, which the optimizer reads once as a constant: in the select list it was worked out
// again for every row, a third of the server's time for the page.
std::string plainPageSql(const std::string& diffgen, size_t names) {
    return eventsSql(
        diffgen, names, ", NULL, `clock`.`micros`",
        std::string(" AS `log` CROSS JOIN (SELECT ") + kClockSql + " AS `micros`) AS `clock`");
}

// Full: first the mark row (NULL id) with the count and the clock, then the events in id
// order, not sorted again (EventPage sorts should they ever arrive out of order). The count's
// upper bound is a bound value: MariaDB does not narrow an index range with a sub-select's
// result, and a count bounded by MAX(page.id) alone would scan the log to its end on every
// page. When the page fills its range the CASE never reaches the count.
std::string fullPageSql(const std::string& diffgen, size_t names) {
    return "WITH page AS (" + eventsSql(diffgen, names) +
           ") SELECT NULL, NULL, NULL, NULL, NULL, "
           "CASE WHEN s.n = COALESCE(s.last_id - ?, 0) THEN s.n "
           "WHEN s.last_id > ? THEN -1 "
           "ELSE (SELECT COUNT(*) FROM " +
           diffgen +
           " AS d WHERE d.`id` > ? AND d.`id` <= ? AND d.`id` <= (SELECT MAX(`id`) FROM page)) "
           "END, " +
           kClockSql +
           " FROM (SELECT COUNT(*) AS n, MAX(`id`) AS last_id FROM page) AS s "
           "UNION ALL SELECT `id`, `tablename`, table_id, `op`, `ts_created`, NULL, NULL FROM page";
}

int64_t countSpanEnd(const sdk::PageRequest& request) {
    int64_t span =
        request.limit > INT64_MAX / kCountSpanPages ? INT64_MAX : request.limit * kCountSpanPages;
    return request.afterId > INT64_MAX - span ? INT64_MAX : request.afterId + span;
}

// ts_created may be DATETIME, TIMESTAMP (both read in UTC) or text in the same shape. Writes
// into `text` (cleared first; left empty for NULL or unknown), reused from row to row.
void tsCreatedText(ResultRow& row, const FieldInfo& field, std::string& raw, std::string& text) {
    text.clear();
    if (row.isNull(kTsCreated)) return;
    bool temporal = field.type == MYSQL_TYPE_DATETIME || field.type == MYSQL_TYPE_TIMESTAMP ||
                    field.type == MYSQL_TYPE_DATE;
    if (temporal) {
        if (appendTimestamp(row.time(kTsCreated), text)) text += "+00:00";
        return;
    }
    bool textual = !field.isInteger() && field.type != MYSQL_TYPE_FLOAT &&
                   field.type != MYSQL_TYPE_DOUBLE && field.type != MYSQL_TYPE_TIME;
    if (!textual) return;  // no date in it: reported as unknown
    raw.clear();
    row.appendBytes(kTsCreated, raw);
    constexpr size_t kWithoutOffset = sizeof("YYYY-MM-DDTHH:MM:SS.ffffff") - 1;
    if (sdk::appendIsoTimestamp(raw, text) && text.size() == kWithoutOffset) text += "+00:00";
}

}  // namespace

void DiffgenLog::readPage(const sdk::PageRequest& request, sdk::EventPage& page) {
    pageReader_.read(request, page);
}

void DiffgenLog::readPlainPage(const sdk::PageRequest& request, sdk::EventPage& page) {
    size_t names = nameSlots(request);
    Params params = eventParams(request, names, 0);
    readRows(session_.prepared(plainPageSql(quoteTable(request.diffgen), names)), params, page);
}

void DiffgenLog::readFullPage(const sdk::PageRequest& request, sdk::EventPage& page) {
    size_t names = nameSlots(request);
    Params params = eventParams(request, names, 4);
    const int64_t countEnd = countSpanEnd(request);
    params.addInt64(request.afterId);
    params.addInt64(countEnd);
    params.addInt64(request.afterId);
    params.addInt64(countEnd);
    if (!readRows(session_.prepared(fullPageSql(quoteTable(request.diffgen), names)), params,
                  page)) {
        throw sdk::DriverError(TDG_INTERNAL, "the diffgen page query returned no mark row");
    }
}

size_t DiffgenLog::nameSlots(const sdk::PageRequest& request) {
    return request.tableNames.empty() ? 0 : nameListSize(request.tableNames.size());
}

// The events statement's parameters, with room for `more`.
Params DiffgenLog::eventParams(const sdk::PageRequest& request, size_t names, size_t more) {
    Params params;
    params.reserve(names + 3 + more);
    params.addInt64(request.afterId);
    params.addInt64(request.upToId);
    for (size_t i = 0; i < names; ++i) {
        params.addText(request.tableNames[std::min(i, request.tableNames.size() - 1)]);
    }
    params.addInt64(request.limit);
    return params;
}

bool DiffgenLog::readRows(Statement& statement, Params& params, sdk::EventPage& page) {
    Cursor cursor(statement, params);
    bool marked = false;
    // Reused from row to row: no allocation per event once they have grown.
    std::string tableName, tableId, op, rawTs, tsCreated;
    while (cursor.next()) {
        ResultRow& row = cursor.row();
        if (!row.isNull(kRangeRows)) page.setRangeRowCount(row.asInt64(kRangeRows));
        if (!marked && !row.isNull(kNowMicros)) {
            page.setMark(horizon_.markPage(row.asInt64(kNowMicros)));
            marked = true;
        }
        if (row.isNull(kId)) continue;  // the mark row

        tableName.clear();
        row.appendBytes(kTableName, tableName);
        tableId.clear();
        if (!row.isNull(kTableId)) row.appendBytes(kTableId, tableId);
        op.clear();
        if (!row.isNull(kOp)) row.appendBytes(kOp, op);
        tsCreatedText(row, cursor.fields()[kTsCreated], rawTs, tsCreated);
        std::string_view tableIdView = tableId;
        page.add(row.asInt64(kId), op.empty() ? '\0' : op[0], tableName,
                 row.isNull(kTableId) ? nullptr : &tableIdView, tsCreated);
    }
    return marked;
}

std::optional<int64_t> DiffgenLog::maxId(const sdk::TableName& diffgen) {
    Params none;
    Cursor cursor(session_.prepared("SELECT MAX(`id`) FROM " + quoteTable(diffgen)), none);
    std::optional<int64_t> highest;
    while (cursor.next()) {
        if (!cursor.row().isNull(0)) highest = cursor.row().asInt64(0);
    }
    return highest;
}

// One statement, so the ids and the counter come from one read view. The next id is the log's
// AUTO_INCREMENT on MariaDB (information_schema.TABLES reads InnoDB's counter as it is), or the
// next value a SEQUENCE has not yet cached: what it hands out next once the values the server
// holds in its shared cache are gone. MySQL 8 answers TABLES.AUTO_INCREMENT from statistics
// kept up to information_schema_stats_expiry (a day by default), which could make a log whose
// ids go on look reset: there the next id stays unknown.
namespace {

// The prune record of a log (packaging/diffgen/mysql.sql): <diffgen>_pruned in its database.
sdk::TableName pruneRecordOf(const sdk::TableName& diffgen) {
    return sdk::TableName{diffgen.schema, diffgen.name + "_pruned"};
}

}  // namespace

DiffgenLog::BoundsRow DiffgenLog::readBounds(const sdk::TableName& diffgen,
                                             const sdk::TableName* sequence, bool withRecord) {
    const std::string table = quoteTable(diffgen);
    const std::string schema = diffgen.schema.value_or(session_.database());
    const sdk::TableName record = pruneRecordOf(diffgen);
    std::string sql =
        "SELECT (SELECT MIN(`id`) FROM " + table + "), (SELECT MAX(`id`) FROM " + table +
        "), (SELECT AUTO_INCREMENT FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND "
        "TABLE_NAME = ?), (SELECT COLUMN_DEFAULT FROM information_schema.COLUMNS WHERE "
        "TABLE_SCHEMA = ? AND TABLE_NAME = ? AND COLUMN_NAME = 'id'), ";
    sql += sequence ? "(SELECT next_not_cached_value FROM " + quoteTable(*sequence) + ")" : "NULL";
    sql +=
        ", EXISTS (SELECT 1 FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND "
        "TABLE_NAME = ?), ";
    sql += withRecord ? "(SELECT MAX(highest_pruned_id) FROM " + quoteTable(record) + ")" : "NULL";
    Params params;
    for (int twice = 0; twice < 2; ++twice) {
        params.addText(schema);
        params.addText(diffgen.name);
    }
    params.addText(schema);
    params.addText(record.name);
    BoundsRow read;
    Cursor cursor(session_.prepared(sql), params);
    while (cursor.next()) {
        ResultRow& row = cursor.row();
        read.bounds.empty = row.isNull(0);
        if (!read.bounds.empty) {
            read.bounds.oldestId = row.asInt64(0);
            read.bounds.newestId = row.asInt64(1);
        }
        if (!row.isNull(2)) read.autoIncrement = row.asInt64(2);
        if (!row.isNull(3)) row.appendBytes(3, read.idDefault);
        if (!row.isNull(4)) read.sequenceNext = row.asInt64(4);
        read.recordExists = row.asInt64(5) != 0;
        if (!row.isNull(6)) read.bounds.highestPrunedId = row.asInt64(6);
    }
    return read;
}

// information_schema lists a table only to a user with a privilege on it, so a record it
// shows is read in the same statement as the bounds from then on; one that appears or goes
// away costs one more statement, the time it happens.
DiffgenLog::BoundsRow DiffgenLog::readBoundsAndRecord(const sdk::TableName& diffgen,
                                                      const sdk::TableName* sequence) {
    bool& withRecord = readsRecord_[quoteTable(diffgen)];
    if (withRecord) {
        try {
            BoundsRow read = readBounds(diffgen, sequence, true);
            if (read.recordExists) return read;
        } catch (const sdk::DriverError&) {
            // Dropped meanwhile, or not readable: read again without it.
        }
        withRecord = false;
        return readBounds(diffgen, sequence, false);
    }
    BoundsRow read = readBounds(diffgen, sequence, false);
    if (!read.recordExists) return read;
    try {
        BoundsRow again = readBounds(diffgen, sequence, true);
        withRecord = again.recordExists;
        return again;
    } catch (const sdk::DriverError& error) {
        if (error.status() != TDG_UNAUTHORIZED) throw;
        return read;  // listed for another privilege than SELECT: no record to read
    }
}

sdk::JournalBounds DiffgenLog::bounds(const sdk::TableName& diffgen) {
    const std::string table = quoteTable(diffgen);
    auto known = idSequences_.find(table);
    bool readable = known != idSequences_.end() && known->second && known->second->readable;
    BoundsRow read = readBoundsAndRecord(diffgen, readable ? &known->second->name : nullptr);
    std::optional<sdk::TableName> inDefault = sequenceOfDefault(read.idDefault);
    bool sameSource =
        known != idSequences_.end() &&
        (known->second ? inDefault && quoteTable(*inDefault) == quoteTable(known->second->name)
                       : !inDefault);
    if (!sameSource) {
        std::optional<IdSequence>& remembered = idSequences_[table];
        remembered = inDefault ? std::optional<IdSequence>(IdSequence{*inDefault}) : std::nullopt;
        try {
            if (inDefault) read = readBoundsAndRecord(diffgen, &*inDefault);
        } catch (const sdk::DriverError& error) {
            if (error.status() != TDG_UNAUTHORIZED) throw;
            remembered->readable = false;  // no SELECT on the sequence: next id unknown
        }
    }
    sdk::JournalBounds bounds = read.bounds;
    if (session_.isMariadb())
        bounds.nextId = read.autoIncrement ? read.autoIncrement : read.sequenceNext;
    return bounds;
}

sdk::HorizonState DiffgenLog::checkHorizon(const TdgHorizonMark& mark) {
    return horizon_.check(mark);
}

}  // namespace tapdiffgen::mysql

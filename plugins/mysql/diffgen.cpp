#include "diffgen.hpp"

#include <mysqld_error.h>

#include "cell_writer.hpp"
#include "params.hpp"
#include "sql_text.hpp"
#include "statement.hpp"
#include "tap-diffgen/sdk/values.hpp"

namespace tapdiffgen::mysql {
namespace {

// Result columns of the page statement.
enum PageColumn : size_t { kId, kTableName, kTableId, kOp, kTsCreated, kRangeRows, kNowMicros };

// One statement, so the events, the range count and the clock share one read view. The count
// covers every table; the mark row survives an empty page through the LEFT JOIN. Table names
// are compared as bytes: diffgen.tablename usually has a case-insensitive collation, and the
// filter must be exact.
std::string pageSql(const std::string& diffgen, size_t names) {
    std::string filter = names == 0 ? "0 = 1"
                                    : "CAST(CONVERT(`tablename` USING utf8mb4) AS BINARY) IN (" +
                                          placeholders(names) + ")";
    return "WITH page AS (SELECT `id`, `tablename`, CAST(`table_id` AS CHAR) AS table_id, "
           "`op`, `ts_created` FROM " +
           diffgen + " WHERE `id` > ? AND `id` <= ? AND " + filter +
           " ORDER BY `id` LIMIT ?) "
           "SELECT page.id, page.tablename, page.table_id, page.op, page.ts_created, "
           "mark.range_rows, mark.now_us FROM (SELECT (SELECT COUNT(*) FROM " +
           diffgen +
           " AS d WHERE d.`id` > ? AND d.`id` <= (SELECT MAX(id) FROM page)) AS range_rows, "
           "CAST(UNIX_TIMESTAMP(NOW(6)) * 1000000 AS SIGNED) AS now_us) AS mark "
           "LEFT JOIN page ON 1 = 1 ORDER BY page.id";
}

const char* const kHorizonSql =
    "SELECT COUNT(*) FROM information_schema.INNODB_TRX "
    "WHERE trx_started <= FROM_UNIXTIME(?) AND trx_mysql_thread_id <> CONNECTION_ID()";

// ts_created may be DATETIME, TIMESTAMP (both read in UTC) or text in the same shape.
std::string tsCreatedText(ResultRow& row, const FieldInfo& field) {
    std::string text;
    if (row.isNull(kTsCreated)) return text;
    bool temporal = field.type == MYSQL_TYPE_DATETIME || field.type == MYSQL_TYPE_TIMESTAMP ||
                    field.type == MYSQL_TYPE_DATE;
    if (temporal) {
        if (appendTimestamp(row.time(kTsCreated), text)) text += "+00:00";
        return text;
    }
    bool textual = !field.isInteger() && field.type != MYSQL_TYPE_FLOAT &&
                   field.type != MYSQL_TYPE_DOUBLE && field.type != MYSQL_TYPE_TIME;
    if (!textual) return text;  // no date in it: reported as unknown
    std::string raw = row.bytes(kTsCreated);
    constexpr size_t kWithoutOffset = sizeof("YYYY-MM-DDTHH:MM:SS.ffffff") - 1;
    if (sdk::appendIsoTimestamp(raw, text) && text.size() == kWithoutOffset) text += "+00:00";
    return text;
}

bool cannotReadTransactions(const sdk::DriverError& error) {
    switch (error.vendorCode()) {
        case ER_SPECIFIC_ACCESS_DENIED_ERROR:
        case ER_TABLEACCESS_DENIED_ERROR:
        case ER_DBACCESS_DENIED_ERROR:
        case ER_UNKNOWN_TABLE:
        case ER_NO_SUCH_TABLE:
            return true;
        default:
            return error.status() == TDG_UNAUTHORIZED || error.status() == TDG_NOT_FOUND;
    }
}

}  // namespace

void DiffgenLog::readPage(const sdk::PageRequest& request, sdk::EventPage& page) {
    size_t names = request.tableNames.empty() ? 0 : nameListSize(request.tableNames.size());
    Params params;
    params.reserve(names + 4);
    params.addInt64(request.afterId);
    params.addInt64(request.upToId);
    for (size_t i = 0; i < names; ++i) {
        params.addText(request.tableNames[std::min(i, request.tableNames.size() - 1)]);
    }
    params.addInt64(request.limit);
    params.addInt64(request.afterId);

    Cursor cursor(session_.prepared(pageSql(quoteTable(request.diffgen), names)), params);
    while (cursor.next()) {
        ResultRow& row = cursor.row();
        page.setRangeRowCount(row.asInt64(kRangeRows));
        page.setMark(TdgHorizonMark{{kMarkVersion, row.asInt64(kNowMicros), 0, 0}});
        if (row.isNull(kId)) continue;  // the mark row of an empty page

        std::string tableName = row.bytes(kTableName);
        std::optional<std::string> tableId;
        if (!row.isNull(kTableId)) tableId = row.bytes(kTableId);
        std::string op = row.isNull(kOp) ? std::string() : row.bytes(kOp);
        std::string_view tableIdView = tableId ? std::string_view(*tableId) : std::string_view();
        page.add(row.asInt64(kId), op.empty() ? '\0' : op[0], tableName,
                 tableId ? &tableIdView : nullptr, tsCreatedText(row, cursor.fields()[kTsCreated]));
    }
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

// INNODB_TRX.trx_started has whole seconds, so the check covers one more second than the mark:
// a transaction started just after the page's read view may be counted, never one before it.
sdk::HorizonState DiffgenLog::checkHorizon(const TdgHorizonMark& mark) {
    if (mark.words[0] != kMarkVersion) {
        throw sdk::notImplemented("this horizon mark was not made by the MySQL dialect");
    }
    if (horizonUnavailable_) throw sdk::notImplemented(*horizonUnavailable_);
    Params params;
    params.addInt64(mark.words[1] / 1000000 + 1);
    int64_t open = 0;
    try {
        Cursor cursor(session_.prepared(kHorizonSql), params);
        while (cursor.next()) open = cursor.row().asInt64(0);
    } catch (const sdk::DriverError& error) {
        if (!cannotReadTransactions(error)) throw;
        horizonUnavailable(error.what());
    }
    return open == 0 ? sdk::HorizonState::Final : sdk::HorizonState::Pending;
}

void DiffgenLog::horizonUnavailable(const std::string& reason) {
    horizonUnavailable_ =
        "cannot read information_schema.INNODB_TRX (the PROCESS privilege is needed), so gaps "
        "in diffgen ids are only trusted after the settle time: " +
        reason;
    session_.warn(*horizonUnavailable_);
    throw sdk::notImplemented(*horizonUnavailable_);
}

}  // namespace tapdiffgen::mysql

#include "row_reader.hpp"

#include <mysqld_error.h>

#include <algorithm>
#include <unordered_set>

#include "key_values.hpp"
#include "params.hpp"
#include "sql_text.hpp"
#include "statement.hpp"
#include "tap-diffgen/sdk/errors.hpp"
#include "tap-diffgen/sdk/key_run.hpp"
#include "tap-diffgen/sdk/key_sql.hpp"
#include "text_query.hpp"

namespace tapdiffgen::mysql {
namespace {

constexpr int64_t kDefaultScanPageRows = 10000;

// The same key twice would return its row twice when it falls into two chunks. Keys are
// `width` texts each.
std::vector<std::string_view> distinctKeys(const std::vector<std::string_view>& keys,
                                           size_t width) {
    std::vector<std::string_view> distinct;
    distinct.reserve(keys.size());
    if (width == 1) {
        std::unordered_set<std::string_view> seen;
        seen.reserve(keys.size());
        for (std::string_view key : keys) {
            if (seen.insert(key).second) distinct.push_back(key);
        }
        return distinct;
    }
    std::unordered_set<std::string> seen;
    for (size_t at = 0; at < keys.size(); at += width) {
        std::string joined;
        for (size_t c = 0; c < width; ++c) {
            joined += keys[at + c];
            joined.push_back('\0');
        }
        if (!seen.insert(std::move(joined)).second) continue;
        distinct.insert(distinct.end(), keys.begin() + static_cast<std::ptrdiff_t>(at),
                        keys.begin() + static_cast<std::ptrdiff_t>(at + width));
    }
    return distinct;
}

std::vector<std::string> quotedNames(const std::vector<std::string_view>& names) {
    std::vector<std::string> quoted;
    for (std::string_view name : names) quoted.push_back(quoteName(name));
    return quoted;
}

// `key IN (?, ...)`, or for a composite key `(a, b) IN ((?, ?), ...)`, which MariaDB reads as
// ranges of the primary key.
std::string keyListSql(const std::vector<std::string>& keys, size_t slots) {
    if (keys.size() == 1) return keys[0] + " IN (" + placeholders(slots) + ")";
    std::string columns, row = "(" + placeholders(keys.size()) + ")", list;
    for (const std::string& key : keys) columns += (columns.empty() ? "" : ", ") + key;
    for (size_t i = 0; i < slots; ++i) list += (i == 0 ? "" : ", ") + row;
    return "(" + columns + ") IN (" + list + ")";
}

// The size class of `count` ranges: a power of two, so that few statements serve every fetch
// (padding repeats the last range, which the server reads once).
size_t rangeSlots(size_t count) {
    size_t slots = 1;
    while (slots < count) slots *= 2;
    return slots;
}

// The statement of a chunk of `count` keys (padded to its size class), with `ranges` ranges of
// the key (padded to theirs) when there are any; `count` may be 0 beside them.
std::string chunkSql(const std::string& head, const std::vector<std::string>& keyColumns,
                     size_t count, size_t ranges) {
    std::string sql = head + keyListSql(keyColumns, keyListSize(std::max<size_t>(count, 1)));
    for (size_t r = 0; ranges > 0 && r < rangeSlots(ranges); ++r) {
        sql += " OR " + keyColumns[0] + " BETWEEN ? AND ?";
    }
    return sql;
}

// A text query's statements stay well under the server's max_allowed_packet (16 MiB by default,
// 1 MiB at the least it is usually set to): 30,000 integer keys take about 250 KiB.
constexpr size_t kMaxTextQueryBytes = 1024 * 1024;

bool isReal(const FieldInfo& field) {
    return field.type == MYSQL_TYPE_FLOAT || field.type == MYSQL_TYPE_DOUBLE;
}

// FLOAT and DOUBLE as CAST(… AS DOUBLE): the text of a plain FLOAT has six digits, and a
// DOUBLE(m,d)'s has d decimals, where the cast's is the shortest that reads back the same.
std::string textColumnList(const std::vector<std::string_view>& names,
                           const std::vector<FieldInfo>& columns) {
    std::string list;
    for (size_t c = 0; c < names.size(); ++c) {
        if (c > 0) list += ", ";
        list += isReal(columns[c]) ? "CAST(" + quoteName(names[c]) + " AS DOUBLE)"
                                   : quoteName(names[c]);
    }
    return list;
}

// The columns that decode a text result: the server's own description of it, except that the
// cast columns are read as what they were cast from.
std::vector<FieldInfo> decodingColumns(const std::vector<FieldInfo>& result,
                                       const std::vector<FieldInfo>& prepared,
                                       const std::string& table) {
    if (result.size() != prepared.size()) {
        throw sdk::DriverError(
            TDG_INTERNAL, "reading rows of '" + table + "': " + std::to_string(result.size()) +
                              " columns where " + std::to_string(prepared.size()) + " were asked");
    }
    std::vector<FieldInfo> columns = result;
    for (size_t c = 0; c < columns.size(); ++c) {
        if (isReal(prepared[c])) {
            columns[c] = prepared[c];
        } else if (isReal(result[c])) {
            throw sdk::tableChanged("table '" + table + "' changed under the read: column '" +
                                    result[c].name + "' is FLOAT or DOUBLE now");
        }
    }
    return columns;
}

// A column the server no longer knows was dropped or renamed since the host described the
// table: the table changed under the read (TDG_TABLE_CHANGED), which the host follows.
template <typename Read>
void reportingTableChanges(Read&& read) {
    try {
        read();
    } catch (const sdk::DriverError& failure) {
        if (failure.vendorCode() != ER_BAD_FIELD_ERROR) throw;
        throw sdk::DriverError(TDG_TABLE_CHANGED, failure.what(), failure.sqlstate(), false,
                               failure.vendorCode());
    }
}

}  // namespace

// One request's part of a text query: its statements, and the columns of the same SELECT as a
// prepared statement, which say how to read the text.
// The key's dense runs it reads as ranges, whose unasked rows the batch drops.
struct RowReader::TextFetch {
    size_t request = 0;
    std::vector<std::string> statements;
    std::vector<FieldInfo> columns;
    CellWriter::JsonTest json;
    std::optional<sdk::KeyRuns> runs;
    int keyColumn = 0;
};

// The keys' dense runs of integers (sdk/key_run.hpp), when the key is one integer column: a
// text column holding digits would compare as numbers in BETWEEN. What the column is comes
// from the first chunk's own statement, which the fetch then runs.
std::optional<sdk::KeyRuns> RowReader::integerKeyRuns(const std::string& head,
                                                      const std::vector<std::string>& keyColumns,
                                                      const std::vector<std::string_view>& keys,
                                                      size_t keyIndex) {
    if (keyColumns.size() != 1) return std::nullopt;
    std::optional<sdk::KeyRuns> runs = sdk::denseKeyRuns(keys);
    if (!runs) return std::nullopt;
    const size_t firstChunk = std::min(kMaxKeysPerStatement, runs->outside.size());
    const Statement& first =
        session_.prepared(chunkSql(head, keyColumns, firstChunk, runs->ranges.size()));
    if (!first.fields().at(keyIndex).isInteger()) return std::nullopt;
    return runs;
}

// Chunks of at most kMaxKeysPerStatement keys, the first also with the dense runs of keys as
// ranges (then its list may be empty: padded with the first range's first key).
void RowReader::fetch(const sdk::FetchRequest& request, sdk::RowBatchBuilder& rows) {
    reportingTableChanges([&] { fetchChunks(request, rows); });
}

void RowReader::fetchChunks(const sdk::FetchRequest& request, sdk::RowBatchBuilder& rows) {
    const std::vector<size_t> keyIndices = sdk::keyPositions(request.columns, request.keyColumns);
    const size_t width = keyIndices.size();
    const std::vector<std::string> keyColumns = quotedNames(request.keyColumns);
    const std::vector<std::string_view> keys = distinctKeys(request.keys, width);
    std::string head =
        "SELECT " + columnList(request.columns) + " FROM " + quoteTable(request.table) + " WHERE ";
    const std::optional<sdk::KeyRuns> runs =
        integerKeyRuns(head, keyColumns, keys, width == 1 ? keyIndices[0] : 0);
    const std::vector<std::string_view>& listed = runs ? runs->outside : keys;
    const std::string runFirst = runs ? std::to_string(runs->ranges[0].first) : std::string();
    const size_t keyCount = listed.size() / width;
    CellWriter::JsonTest json;
    bool jsonKnown = false;
    const sdk::DroppingRowsNotAsked filtered(rows, runs ? &*runs : nullptr,
                                             static_cast<int>(keyIndices[0]));
    for (size_t offset = 0; offset < keyCount || (runs && offset == 0);
         offset += kMaxKeysPerStatement) {
        session_.throwIfCancelled();
        const size_t ranges = runs && offset == 0 ? runs->ranges.size() : 0;
        const size_t count = std::min(kMaxKeysPerStatement, keyCount - offset);
        const size_t slots = keyListSize(std::max<size_t>(count, 1));
        Statement& statement = session_.prepared(chunkSql(head, keyColumns, count, ranges));
        if (!jsonKnown) {
            json = catalog_.jsonColumns(request.table, statement.fields());
            jsonKnown = true;
        }
        Params params;
        params.reserve(slots * width + 2 * rangeSlots(ranges));
        // Padding repeats the last key: IN ignores duplicates, and one statement serves every
        // chunk of the same size class.
        for (size_t i = 0; i < slots; ++i) {
            for (size_t c = 0; c < width; ++c) {
                std::string_view key =
                    count == 0 ? runFirst : listed[(offset + std::min(i, count - 1)) * width + c];
                bindKey(params, key, statement.fields().at(keyIndices[c]), request.keyColumns[c]);
            }
        }
        for (size_t r = 0; ranges > 0 && r < rangeSlots(ranges); ++r) {
            const sdk::KeyRange& range = runs->ranges[std::min(r, ranges - 1)];
            params.addInt64(range.first);
            params.addInt64(range.last);
        }
        Cursor cursor(statement, params);
        writer_.prepare(cursor.fields(), json, request.table.display());
        writer_.requireKinds(request.columnKinds);
        while (cursor.next()) writer_.writeRow(cursor.row(), rows);
    }
}

// The statements of one request: the keys as literals, at most kMaxKeysPerStatement of them and
// kMaxTextQueryBytes of text per statement, the dense runs of integers as ranges (as fetch).
std::vector<FieldInfo> RowReader::decodingFieldsOf(const sdk::FetchRequest& request) {
    return session_
        .prepared("SELECT " + columnList(request.columns) + " FROM " + quoteTable(request.table) +
                  " WHERE " + keyListSql(quotedNames(request.keyColumns), 1))
        .fields();
}

RowReader::TextFetch RowReader::planTextFetch(const sdk::FetchRequest& request, size_t index,
                                              std::vector<FieldInfo> columns) {
    const std::vector<size_t> keyIndices = sdk::keyPositions(request.columns, request.keyColumns);
    const size_t width = keyIndices.size();
    const std::vector<std::string> keyColumns = quotedNames(request.keyColumns);
    const std::string from = " FROM " + quoteTable(request.table) + " WHERE ";
    TextFetch fetch;
    fetch.request = index;
    fetch.columns = std::move(columns);
    fetch.json = catalog_.jsonColumns(request.table, fetch.columns);

    const std::vector<std::string_view> keys = distinctKeys(request.keys, width);
    if (width == 1 && fetch.columns.at(keyIndices[0]).isInteger()) {
        fetch.runs = sdk::denseKeyRuns(keys);
        fetch.keyColumn = static_cast<int>(keyIndices[0]);
    }
    const std::vector<std::string_view>& listed = fetch.runs ? fetch.runs->outside : keys;
    std::string range;
    for (size_t r = 0; fetch.runs && r < fetch.runs->ranges.size(); ++r) {
        range += (r == 0 ? "" : " OR ") + keyColumns[0] + " BETWEEN " +
                 std::to_string(fetch.runs->ranges[r].first) + " AND " +
                 std::to_string(fetch.runs->ranges[r].last);
    }
    std::string list = keyColumns[0];
    for (size_t c = 1; c < width; ++c) list += ", " + keyColumns[c];
    if (width > 1) list = "(" + list + ")";
    const std::string head = "SELECT " + textColumnList(request.columns, fetch.columns) + from;

    const size_t keyCount = listed.size() / width;
    size_t at = 0;
    do {
        std::string sql = head;
        size_t inStatement = 0;
        if (at < keyCount) {
            sql += list + " IN (";
            for (; at < keyCount && inStatement < kMaxKeysPerStatement &&
                   sql.size() < kMaxTextQueryBytes;
                 ++at, ++inStatement) {
                if (inStatement > 0) sql += ", ";
                if (width > 1) sql += '(';
                for (size_t c = 0; c < width; ++c) {
                    if (c > 0) sql += ", ";
                    appendKeyLiteral(sql, session_.handle(), listed[at * width + c],
                                     fetch.columns.at(keyIndices[c]), request.keyColumns[c]);
                }
                if (width > 1) sql += ')';
            }
            sql += ')';
        }
        if (!range.empty()) {
            sql += (inStatement > 0 ? " OR " : "") + range;
            range.clear();
        }
        fetch.statements.push_back(std::move(sql));
    } while (at < keyCount);
    return fetch;
}

void RowReader::runTextFetches(const std::vector<TextFetch>& fetches, const std::string& sql,
                               const std::vector<sdk::FetchRequest>& requests,
                               const std::vector<sdk::RowBatchBuilder*>& rows) {
    std::optional<MultiStatementQuery> query;
    for (const TextFetch& fetch : fetches) {
        const std::string table = requests[fetch.request].table.display();
        const std::string context = "reading rows of '" + table + "'";
        if (!query && !fetch.statements.empty()) query.emplace(session_, sql, context);
        for (size_t s = 0; s < fetch.statements.size(); ++s) {
            const std::vector<FieldInfo> columns =
                decodingColumns(query->nextResult(context), fetch.columns, table);
            writer_.prepare(columns, fetch.json, table);
            writer_.requireKinds(requests[fetch.request].columnKinds);
            TextRow row(columns);
            sdk::RowBatchBuilder& batch = *rows[fetch.request];
            const sdk::DroppingRowsNotAsked filtered(batch, fetch.runs ? &*fetch.runs : nullptr,
                                                     fetch.keyColumn);
            while (query->nextRow(row, context)) writer_.writeRow(row, batch);
        }
        rows[fetch.request]->finish();
    }
}

// Requests are gathered into queries of up to kMaxTextQueryBytes, answered in order. A request
// without keys takes its turn with nothing to read.
void RowReader::fetchMany(const std::vector<sdk::FetchRequest>& requests,
                          const std::vector<sdk::RowBatchBuilder*>& rows) {
    reportingTableChanges([&] { fetchManyAsText(requests, rows); });
}

void RowReader::fetchManyAsText(const std::vector<sdk::FetchRequest>& requests,
                                const std::vector<sdk::RowBatchBuilder*>& rows) {
    // Every request's columns first, so that the catalog of all the tables a session has not
    // read yet (a session taking its first share of a page) is one query, not one per table.
    std::vector<std::vector<FieldInfo>> decoding(requests.size());
    std::vector<Catalog::ResultColumns> results;
    for (size_t i = 0; i < requests.size(); ++i) {
        if (requests[i].keys.empty()) continue;
        decoding[i] = decodingFieldsOf(requests[i]);
        results.push_back({requests[i].table, decoding[i]});
    }
    catalog_.learnJsonColumns(results);
    std::vector<TextFetch> pending;
    std::string sql;
    auto run = [&] {
        runTextFetches(pending, sql, requests, rows);
        pending.clear();
        sql.clear();
    };
    for (size_t i = 0; i < requests.size(); ++i) {
        session_.throwIfCancelled();
        if (requests[i].keys.empty()) {
            TextFetch nothing;
            nothing.request = i;
            pending.push_back(std::move(nothing));
            continue;
        }
        TextFetch fetch = planTextFetch(requests[i], i, std::move(decoding[i]));
        size_t bytes = 0;
        for (const std::string& statement : fetch.statements) bytes += statement.size() + 1;
        if (!sql.empty() && sql.size() + bytes > kMaxTextQueryBytes) run();
        for (const std::string& statement : fetch.statements) {
            if (!sql.empty()) sql += ';';
            sql += statement;
        }
        pending.push_back(std::move(fetch));
    }
    run();
}

// Keyset pagination: each page is its own autocommit statement, so no read view or lock lives
// longer than one page however big the table is. A composite key pages with the spelled-out
// condition, which MariaDB plans as a range of the primary key.
void RowReader::scan(const sdk::ScanRequest& request, sdk::RowBatchBuilder& rows) {
    reportingTableChanges([&] { scanPages(request, rows); });
}

void RowReader::scanPages(const sdk::ScanRequest& request, sdk::RowBatchBuilder& rows) {
    const int64_t pageRows = request.batchRows > 0 ? request.batchRows : kDefaultScanPageRows;
    KeysetStatements statements = keysetStatements(request);
    std::vector<LastKey> last;
    for (;;) {
        if (readKeysetPage(request, statements, pageRows, last, rows) < pageRows) return;
        for (size_t c = 0; c < last.size(); ++c) {
            if (last[c].isNull()) {
                throw sdk::DriverError(TDG_INVALID_DATA,
                                       "cannot page through '" + request.table.display() +
                                           "': key column '" + std::string(request.keyColumns[c]) +
                                           "' has NULL values");
            }
        }
    }
}

// One page after the host's key, the rows streamed as the server sends them (an unbuffered
// prepared statement holds one row at a time).
void RowReader::scanChunk(const sdk::ScanRequest& request, sdk::RowBatchBuilder& rows) {
    reportingTableChanges([&] { scanOneChunk(request, rows); });
}

void RowReader::scanOneChunk(const sdk::ScanRequest& request, sdk::RowBatchBuilder& rows) {
    KeysetStatements statements = keysetStatements(request);
    const std::vector<FieldInfo>& fields = session_.prepared(statements.first).fields();
    const std::vector<size_t> keyIndices = sdk::keyPositions(request.columns, request.keyColumns);
    std::vector<LastKey> after;
    for (size_t c = 0; c < request.afterKey.size(); ++c) {
        after.push_back(LastKey::fromCell(request.afterKey[c], fields.at(keyIndices[c]),
                                          request.keyColumns[c]));
    }
    numberLabelledKeys(request, fields, after);
    readKeysetPage(request, statements, request.maxRows, after, rows);
}

RowReader::KeysetStatements RowReader::keysetStatements(const sdk::ScanRequest& request) {
    const std::vector<std::string> keyColumns = quotedNames(request.keyColumns);
    std::string select =
        "SELECT " + columnList(request.columns) + " FROM " + quoteTable(request.table);
    std::string order;
    for (const std::string& key : keyColumns) order += (order.empty() ? "" : ", ") + key;
    order = " ORDER BY " + order + " LIMIT ?";
    KeysetStatements statements;
    statements.after = sdk::keysetAfter(keyColumns, [](size_t) { return "?"; });
    statements.first = select + order;
    statements.next = select + " WHERE " + statements.after.sql + order;
    return statements;
}

// Rows after `last` (from the first row when it is empty), at most `limit`; `last` then holds
// the last row's key. Returns the rows read.
int64_t RowReader::readKeysetPage(const sdk::ScanRequest& request,
                                  const KeysetStatements& statements, int64_t limit,
                                  std::vector<LastKey>& last, sdk::RowBatchBuilder& rows) {
    session_.throwIfCancelled();
    const std::vector<size_t> keyIndices = sdk::keyPositions(request.columns, request.keyColumns);
    const bool first = last.empty();
    Params params;
    if (!first) {
        for (size_t column : statements.after.keyColumnOfPlaceholder) last[column].bind(params);
    }
    params.addInt64(limit);
    Statement& statement = session_.prepared(first ? statements.first : statements.next);
    const CellWriter::JsonTest json = catalog_.jsonColumns(request.table, statement.fields());
    Cursor cursor(statement, params);
    writer_.prepare(cursor.fields(), json, request.table.display());
    writer_.requireKinds(request.columnKinds);
    // The next page's key is kept apart: `params` may point into `last` until the rows are in.
    std::vector<LastKey> next(keyIndices.size());
    int64_t read = 0;
    while (cursor.next()) {
        writer_.writeRow(cursor.row(), rows);
        for (size_t c = 0; c < keyIndices.size(); ++c) {
            next[c].capture(cursor.row(), keyIndices[c], cursor.fields()[keyIndices[c]]);
        }
        ++read;
    }
    if (read > 0) {
        last = std::move(next);
        numberLabelledKeys(request, cursor.fields(), last);
    }
    return read;
}

// ENUM and SET keys sort by their number but compare with a string as text: the next page
// starts after the last key's number, or it would skip rows ('ok' sorts after 'sad').
void RowReader::numberLabelledKeys(const sdk::ScanRequest& request,
                                   const std::vector<FieldInfo>& fields,
                                   std::vector<LastKey>& keys) {
    const std::vector<size_t> keyIndices = sdk::keyPositions(request.columns, request.keyColumns);
    auto labelled = [&](size_t c) {
        return (fields.at(keyIndices[c]).flags & (ENUM_FLAG | SET_FLAG)) != 0;
    };
    bool any = false;
    for (size_t c = 0; c < keys.size(); ++c) any = any || labelled(c);
    if (!any) return;
    const std::vector<sdk::ColumnInfo> columns = catalog_.describe(request.table);
    for (size_t c = 0; c < keys.size(); ++c) {
        if (!labelled(c) || keys[c].isNull()) continue;
        for (const sdk::ColumnInfo& column : columns) {
            if (column.name != request.keyColumns[c]) continue;
            const std::optional<uint64_t> number =
                labelNumber(keys[c].text(), orderedLabels(column.sqlType),
                            (fields.at(keyIndices[c]).flags & SET_FLAG) != 0);
            if (number) keys[c].useNumber(*number);
        }
    }
}

}  // namespace tapdiffgen::mysql

#include "row_reader.hpp"

#include <algorithm>
#include <unordered_set>

#include "key_values.hpp"
#include "params.hpp"
#include "sql_text.hpp"
#include "statement.hpp"
#include "tap-diffgen/sdk/errors.hpp"

namespace tapdiffgen::mysql {
namespace {

constexpr int64_t kDefaultScanPageRows = 10000;

size_t keyPosition(const std::vector<std::string_view>& columns, std::string_view key) {
    auto found = std::find(columns.begin(), columns.end(), key);
    if (found == columns.end()) {
        throw sdk::invalidArgument("key column '" + std::string(key) +
                                   "' is not among the requested columns");
    }
    return static_cast<size_t>(found - columns.begin());
}

// The same key twice would return its row twice when it falls into two chunks.
std::vector<std::string_view> distinctKeys(const std::vector<std::string_view>& keys) {
    std::unordered_set<std::string_view> seen;
    seen.reserve(keys.size());
    std::vector<std::string_view> distinct;
    distinct.reserve(keys.size());
    for (std::string_view key : keys) {
        if (seen.insert(key).second) distinct.push_back(key);
    }
    return distinct;
}

}  // namespace

void RowReader::fetch(const sdk::FetchRequest& request, sdk::RowBatchBuilder& rows) {
    size_t keyIndex = keyPosition(request.columns, request.keyColumn);
    std::vector<std::string_view> keys = distinctKeys(request.keys);
    std::string head = "SELECT " + columnList(request.columns) + " FROM " +
                       quoteTable(request.table) + " WHERE " + quoteName(request.keyColumn) +
                       " IN (";
    CellWriter::JsonTest json;
    bool jsonKnown = false;
    for (size_t offset = 0; offset < keys.size(); offset += kMaxKeysPerStatement) {
        session_.throwIfCancelled();
        size_t count = std::min(kMaxKeysPerStatement, keys.size() - offset);
        size_t slots = keyListSize(count);
        std::string sql = head + placeholders(slots) + ")";
        if (!jsonKnown) {
            json = catalog_.jsonColumns(request.table, session_.prepared(sql).fields());
            jsonKnown = true;
        }
        Statement& statement = session_.prepared(sql);
        const FieldInfo keyField = statement.fields().at(keyIndex);
        Params params;
        params.reserve(slots);
        // Padding repeats the last key: IN ignores duplicates, and one statement serves every
        // chunk of the same size class.
        for (size_t i = 0; i < slots; ++i) {
            bindKey(params, keys[offset + std::min(i, count - 1)], keyField, request.keyColumn);
        }
        Cursor cursor(statement, params);
        writer_.prepare(cursor.fields(), json);
        while (cursor.next()) writer_.writeRow(cursor.row(), rows);
    }
}

// Keyset pagination: each page is its own autocommit statement, so no read view or lock lives
// longer than one page however big the table is.
void RowReader::scan(const sdk::ScanRequest& request, sdk::RowBatchBuilder& rows) {
    size_t keyIndex = keyPosition(request.columns, request.keyColumn);
    int64_t pageRows = request.batchRows > 0 ? request.batchRows : kDefaultScanPageRows;
    std::string select =
        "SELECT " + columnList(request.columns) + " FROM " + quoteTable(request.table);
    std::string order = " ORDER BY " + quoteName(request.keyColumn) + " LIMIT ?";
    std::string firstSql = select + order;
    std::string nextSql = select + " WHERE " + quoteName(request.keyColumn) + " > ?" + order;

    CellWriter::JsonTest json =
        catalog_.jsonColumns(request.table, session_.prepared(firstSql).fields());
    LastKey last;
    for (bool first = true;; first = false) {
        session_.throwIfCancelled();
        Params params;
        if (!first) last.bind(params);
        params.addInt64(pageRows);
        Cursor cursor(session_.prepared(first ? firstSql : nextSql), params);
        writer_.prepare(cursor.fields(), json);
        int64_t read = 0;
        while (cursor.next()) {
            writer_.writeRow(cursor.row(), rows);
            last.capture(cursor.row(), keyIndex, cursor.fields()[keyIndex]);
            ++read;
        }
        if (read < pageRows) return;
        if (last.isNull()) {
            throw sdk::DriverError(TDG_INVALID_DATA,
                                   "cannot page through '" + request.table.display() +
                                       "': key column '" + std::string(request.keyColumn) +
                                       "' has NULL values");
        }
    }
}

}  // namespace tapdiffgen::mysql

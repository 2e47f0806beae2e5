#include "row_reader.hpp"

#include <algorithm>
#include <unordered_set>

#include "key_values.hpp"
#include "params.hpp"
#include "sql_text.hpp"
#include "statement.hpp"
#include "tap-diffgen/sdk/errors.hpp"
#include "tap-diffgen/sdk/key_run.hpp"
#include "tap-diffgen/sdk/key_sql.hpp"

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

// The statement of a chunk of `count` keys (padded to its size class), with the key's run as a
// range when `withRun`; `count` may be 0 beside the run.
std::string chunkSql(const std::string& head, const std::vector<std::string>& keyColumns,
                     size_t count, bool withRun) {
    std::string sql = head + keyListSql(keyColumns, keyListSize(std::max<size_t>(count, 1)));
    if (withRun) sql += " OR " + keyColumns[0] + " BETWEEN ? AND ?";
    return sql;
}

}  // namespace

// The keys' longest run of consecutive integers (sdk/key_run.hpp), when the key is one integer
// column: a text column holding digits would compare as numbers in BETWEEN. What the column is
// comes from the first chunk's own statement, which the fetch then runs.
std::optional<sdk::KeyRun> RowReader::integerKeyRun(const std::string& head,
                                                    const std::vector<std::string>& keyColumns,
                                                    const std::vector<std::string_view>& keys,
                                                    size_t keyIndex) {
    if (keyColumns.size() != 1) return std::nullopt;
    std::optional<sdk::KeyRun> run = sdk::longestKeyRun(keys);
    if (!run) return std::nullopt;
    const size_t firstChunk = std::min(kMaxKeysPerStatement, run->outside.size());
    const Statement& first = session_.prepared(chunkSql(head, keyColumns, firstChunk, true));
    if (!first.fields().at(keyIndex).isInteger()) return std::nullopt;
    return run;
}

// Chunks of at most kMaxKeysPerStatement keys, the first also with the run of consecutive keys
// as a range (then its list may be empty: padded with the run's first key).
void RowReader::fetch(const sdk::FetchRequest& request, sdk::RowBatchBuilder& rows) {
    const std::vector<size_t> keyIndices = sdk::keyPositions(request.columns, request.keyColumns);
    const size_t width = keyIndices.size();
    const std::vector<std::string> keyColumns = quotedNames(request.keyColumns);
    const std::vector<std::string_view> keys = distinctKeys(request.keys, width);
    std::string head =
        "SELECT " + columnList(request.columns) + " FROM " + quoteTable(request.table) + " WHERE ";
    const std::optional<sdk::KeyRun> run =
        integerKeyRun(head, keyColumns, keys, width == 1 ? keyIndices[0] : 0);
    const std::vector<std::string_view>& listed = run ? run->outside : keys;
    const std::string runFirst = run ? std::to_string(run->first) : std::string();
    const size_t keyCount = listed.size() / width;
    CellWriter::JsonTest json;
    bool jsonKnown = false;
    for (size_t offset = 0; offset < keyCount || (run && offset == 0);
         offset += kMaxKeysPerStatement) {
        session_.throwIfCancelled();
        const bool withRun = run && offset == 0;
        const size_t count = std::min(kMaxKeysPerStatement, keyCount - offset);
        const size_t slots = keyListSize(std::max<size_t>(count, 1));
        Statement& statement = session_.prepared(chunkSql(head, keyColumns, count, withRun));
        if (!jsonKnown) {
            json = catalog_.jsonColumns(request.table, statement.fields());
            jsonKnown = true;
        }
        Params params;
        params.reserve(slots * width + 2);
        // Padding repeats the last key: IN ignores duplicates, and one statement serves every
        // chunk of the same size class.
        for (size_t i = 0; i < slots; ++i) {
            for (size_t c = 0; c < width; ++c) {
                std::string_view key =
                    count == 0 ? runFirst : listed[(offset + std::min(i, count - 1)) * width + c];
                bindKey(params, key, statement.fields().at(keyIndices[c]), request.keyColumns[c]);
            }
        }
        if (withRun) {
            params.addInt64(run->first);
            params.addInt64(run->last);
        }
        Cursor cursor(statement, params);
        writer_.prepare(cursor.fields(), json, request.table.display());
        while (cursor.next()) writer_.writeRow(cursor.row(), rows);
    }
}

// Keyset pagination: each page is its own autocommit statement, so no read view or lock lives
// longer than one page however big the table is. A composite key pages with the spelled-out
// condition, which MariaDB plans as a range of the primary key.
void RowReader::scan(const sdk::ScanRequest& request, sdk::RowBatchBuilder& rows) {
    const std::vector<size_t> keyIndices = sdk::keyPositions(request.columns, request.keyColumns);
    const std::vector<std::string> keyColumns = quotedNames(request.keyColumns);
    int64_t pageRows = request.batchRows > 0 ? request.batchRows : kDefaultScanPageRows;
    std::string select =
        "SELECT " + columnList(request.columns) + " FROM " + quoteTable(request.table);
    std::string order;
    for (const std::string& key : keyColumns) order += (order.empty() ? "" : ", ") + key;
    order = " ORDER BY " + order + " LIMIT ?";
    sdk::KeysetCondition after = sdk::keysetAfter(keyColumns, [](size_t) { return "?"; });
    std::string firstSql = select + order;
    std::string nextSql = select + " WHERE " + after.sql + order;

    CellWriter::JsonTest json =
        catalog_.jsonColumns(request.table, session_.prepared(firstSql).fields());
    std::vector<LastKey> last(keyIndices.size());
    for (bool first = true;; first = false) {
        session_.throwIfCancelled();
        Params params;
        if (!first) {
            for (size_t column : after.keyColumnOfPlaceholder) last[column].bind(params);
        }
        params.addInt64(pageRows);
        Cursor cursor(session_.prepared(first ? firstSql : nextSql), params);
        writer_.prepare(cursor.fields(), json, request.table.display());
        int64_t read = 0;
        while (cursor.next()) {
            writer_.writeRow(cursor.row(), rows);
            for (size_t c = 0; c < keyIndices.size(); ++c) {
                last[c].capture(cursor.row(), keyIndices[c], cursor.fields()[keyIndices[c]]);
            }
            ++read;
        }
        if (read < pageRows) return;
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

}  // namespace tapdiffgen::mysql

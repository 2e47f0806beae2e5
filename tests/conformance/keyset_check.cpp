// check "keyset": keyset paging and key chunking, whatever page and chunk size the plugin
// chooses.
//
//   {"check": "keyset", "table": "tdg_conf_keyset", "key": ["grp", "label"],
//    "row_count": 20000, "batch_rows": 997}
//
// The table has the columns grp, label and n, the key (grp, label), and row_count rows; row n
// (1..row_count, at most 20010) is
//   grp = n % 61, label = "o'" followed by (n * 7919) % 20011 in five digits, n
// which the case's setup SQL writes with the database's own arithmetic. In key order each grp
// value holds a run of about row_count / 61 rows, labels in another order than n: a page of
// any size that is not a multiple of the run ends inside one, where a pager that moves on by
// the first key column alone ("grp > ?") skips the rest of the run, and one that compares
// labels outside the database (or unquoted: every label holds a quote) goes wrong too. The
// table is larger than the page or chunk a plugin is likely to choose, so it is paged and
// chunked whether or not the plugin reads batch_rows as its statement size.
//
// Checked, each against every row exactly once: scan_table with the plugin's own batch size
// (batch_rows 0) and with batch_rows; fetch_rows of every key at once (the plugin chunks them
// as it likes) plus three keys of no row (one whose halves belong to two different rows); and
// fetch_rows_many of the keys in three requests of uneven size. A plugin whose pages or chunks
// hold more rows than the table makes them smaller with "options" in its expected.<name>.json.
#include <algorithm>
#include <cstdio>

#include "abi_error.hpp"
#include "case_result.hpp"
#include "cell_text.hpp"
#include "chunk_scan.hpp"
#include "expected_json.hpp"
#include "fetch_many.hpp"
#include "live_cases.hpp"
#include "live_connection.hpp"
#include "row_collector.hpp"

namespace tapdiffgen::conformance {
namespace {

using Poco::JSON::Object;

constexpr int64_t kGroups = 61;
constexpr int64_t kLabelFactor = 7919;
constexpr int64_t kLabelModulus = 20011;
const std::vector<std::string> kColumns = {"grp", "label", "n"};

std::string labelOf(int64_t n) {
    char digits[16];
    std::snprintf(digits, sizeof(digits), "%05lld",
                  static_cast<long long>(n * kLabelFactor % kLabelModulus));
    return std::string("o'") + digits;
}

struct KeysetTable {
    core::TableRef table;
    std::vector<TdgValueKind> kinds;  // of kColumns
    core::KeySpec key;
    int64_t rowCount = 0;
};

KeysetTable describe(core::DialectConnection& connection, const Object::Ptr& expected) {
    KeysetTable target;
    target.table = {"", textOf(expected, "table")};
    target.rowCount = integerOf(expected, "row_count");
    require(target.rowCount >= 3 && target.rowCount < kLabelModulus,
            "expected.json: row_count must be 3 to " + std::to_string(kLabelModulus - 1));
    std::vector<core::ColumnDescription> described = connection.describeTable(target.table);
    require(described.size() == kColumns.size(), "describe_table reported " +
                                                     std::to_string(described.size()) +
                                                     " columns, expected grp, label and n");
    const TdgValueKind expectedKinds[] = {TDG_KIND_INT64, TDG_KIND_TEXT, TDG_KIND_INT64};
    for (size_t c = 0; c < kColumns.size(); ++c) {
        require(described[c].name == kColumns[c] && described[c].kind == expectedKinds[c],
                "column " + std::to_string(c + 1) + " is '" + described[c].name + "' (" +
                    kindName(described[c].kind) + "), expected '" + kColumns[c] + "' (" +
                    kindName(expectedKinds[c]) + ")");
        target.kinds.push_back(described[c].kind);
    }
    for (const std::string& name : stringsOf(arrayOf(expected, "key"))) {
        auto at = std::find(kColumns.begin(), kColumns.end(), name);
        require(at != kColumns.end(), "expected.json: key column '" + name + "' is not a column");
        target.key.columns.push_back({name, target.kinds[at - kColumns.begin()], false, "", -1});
    }
    return target;
}

RowText rowOf(int64_t n) {
    return {std::to_string(n % kGroups),
            expectedText(Poco::Dynamic::Var(labelOf(n)), TDG_KIND_TEXT), std::to_string(n)};
}

// The keys of rows first..last (in that order, which is not key order), flattened.
std::vector<std::string> keysOf(int64_t first, int64_t last) {
    std::vector<std::string> keys;
    for (int64_t n = first; n <= last; ++n) {
        keys.push_back(std::to_string(n % kGroups));
        keys.push_back(labelOf(n));
    }
    return keys;
}

std::vector<RowText> rowsOf(int64_t first, int64_t last) {
    std::vector<RowText> rows;
    for (int64_t n = first; n <= last; ++n) rows.push_back(rowOf(n));
    std::sort(rows.begin(), rows.end());
    return rows;
}

std::vector<RowText> scan(core::DialectConnection& connection, const KeysetTable& target,
                          int64_t batchRows) {
    RowCollector collector(kColumns, target.kinds);
    connection.scanTable(target.table, kColumns, &target.kinds, target.key, batchRows,
                         [&](const TdgRowBatch& batch) { collector.add(batch); });
    return collector.sortedRows();
}

std::vector<RowText> fetch(core::DialectConnection& connection, const KeysetTable& target,
                           const std::vector<std::string>& keys) {
    RowCollector collector(kColumns, target.kinds);
    core::FetchSpec spec{&target.table, &kColumns,
                         &target.kinds, &target.key,
                         keys,          [&](const TdgRowBatch& batch) { collector.add(batch); }};
    connection.fetchRows(spec, 0);
    return collector.sortedRows();
}

// Every key, newest row first, with three keys of no row among them.
std::vector<std::string> everyKeyAndNoRow(int64_t rowCount) {
    std::vector<std::string> keys;
    for (int64_t n = rowCount; n >= 1; --n) {
        keys.push_back(std::to_string(n % kGroups));
        keys.push_back(labelOf(n));
        if (n == rowCount / 2) {
            // grp of row 1 with the label of row 2; a grp no row has; a label no row has.
            keys.insert(keys.end(), {std::to_string(1 % kGroups), labelOf(2),
                                     std::to_string(kGroups), labelOf(1), "0", "o'99999"});
        }
    }
    return keys;
}

// estimate_rows of the table after ANALYZE (the case's setup runs it): an estimate within a
// factor of two of the rows it holds. Through the plugin's own table, so that NOT_IMPLEMENTED
// (accepted) and "no estimate", -1 (refused for an analysed table), are told apart.
std::string checkEstimate(const LiveContext& context, const core::TableRef& table,
                          int64_t rowCount) {
    const TdgDriver& driver = context.subject->plugin->driver();
    if (driver.estimate_rows == nullptr) return "no estimate_rows";
    TdgConnection* raw = connectRaw(context, driver);
    TdgTableRef ref{nullptr, table.name.c_str()};
    int64_t rows = -2;
    TdgError error{};
    const TdgStatus status = driver.estimate_rows(raw, &ref, &rows, &error);
    const std::string message = takeErrorMessage(error);
    driver.close(raw);
    if (status == TDG_NOT_IMPLEMENTED) return "estimate_rows not implemented";
    require(status == TDG_OK, "estimate_rows failed: " + message);
    require(rows >= 0, "estimate_rows gave " + std::to_string(rows) + " for '" + table.name +
                           "', which holds " + std::to_string(rowCount) +
                           " rows and was analysed: a non-empty analysed table has an estimate");
    require(rows * 2 >= rowCount && rows <= rowCount * 2,
            "estimate_rows gave " + std::to_string(rows) + " for '" + table.name +
                "', which holds " + std::to_string(rowCount) +
                " rows (analysed): more than a factor of 2 off");
    return "estimate_rows " + std::to_string(rows);
}

}  // namespace

std::string checkKeyset(const LiveContext& context, const CaseFiles& files) {
    const Object::Ptr& expected = files.expected;
    auto connection = openConnection(context, files);
    std::string stage = "describe_table";
    try {
        const KeysetTable target = describe(*connection, expected);
        const int64_t count = target.rowCount;
        const std::vector<RowText> all = rowsOf(1, count);
        const int64_t batchRows = integerOf(expected, "batch_rows");
        stage = "scan_table";
        requireSameRows("scan_table in the plugin's own batches", all,
                        scan(*connection, target, 0));
        requireSameRows("scan_table in batches of " + std::to_string(batchRows), all,
                        scan(*connection, target, batchRows));
        stage = "scan_chunk";
        std::string chunks;
        for (const std::string& size : stringsOf(arrayOf(expected, "chunk_rows"))) {
            const int64_t maxRows = std::stoll(size);
            core::ScanSpec spec{&target.table, &kColumns, &target.kinds, &target.key, 0};
            auto chunked = scanInChunks(*connection, spec, maxRows, all.size());
            if (!chunked) break;
            requireChunkedRows(target.table.name, maxRows, all, *chunked);
            chunks += (chunks.empty() ? "" : ", ") + std::to_string(chunked->chunks);
        }
        stage = "estimate_rows";
        const std::string estimate = checkEstimate(context, target.table, count);
        stage = "fetch_rows";
        requireSameRows("fetch_rows of every key at once", all,
                        fetch(*connection, target, everyKeyAndNoRow(count)));
        stage = "fetch_rows_many";
        const int64_t cut = count / 3;
        std::vector<PlannedFetch> planned = {
            {kColumns, target.kinds, keysOf(1, 1), rowsOf(1, 1)},
            {kColumns, target.kinds, keysOf(2, cut), rowsOf(2, cut)},
            {kColumns, target.kinds, keysOf(cut + 1, count), rowsOf(cut + 1, count)}};
        std::string many =
            checkFetchRowsMany(context, *connection, target.table, target.key, planned, 0);
        return std::to_string(count) + " rows scanned twice and fetched by key, " +
               (chunks.empty() ? "no scan_chunk" : "in " + chunks + " chunks") + ", " + estimate +
               (many.empty() ? "" : ", " + many);
    } catch (const core::DialectError& failure) {
        throw CaseFailure(stage + ": " + describeError(failure));
    }
}

}  // namespace tapdiffgen::conformance

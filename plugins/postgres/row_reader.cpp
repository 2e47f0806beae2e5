#include "row_reader.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>

#include "array_literal.hpp"
#include "bytea_text.hpp"
#include "cells.hpp"
#include "key_codec.hpp"
#include "named_statements.hpp"
#include "pipeline.hpp"
#include "statement.hpp"
#include "tap-diffgen/sdk/errors.hpp"
#include "tap-diffgen/sdk/key_run.hpp"
#include "tap-diffgen/sdk/types.hpp"
#include "tap-diffgen/sdk/values.hpp"

namespace tapdiffgen::postgres {
namespace {

constexpr int64_t kDefaultScanBatch = 10000;

// The description a read was planned with no longer matches the table, or the request (a
// column added, dropped, renamed or retyped). Thrown only before any row of the read was added,
// so the read can start over.
class StaleDescription : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

std::string quoted(std::string_view name) { return sdk::quoteIdentifier(name, '"'); }

const PgColumn& columnNamed(const TableDescription& description, std::string_view name) {
    const PgColumn* column = description.find(name);
    if (column == nullptr) {
        throw StaleDescription("column '" + std::string(name) + "' does not exist");
    }
    return *column;
}

// `kinds`: the kind the host described each column with (empty from a revision-1 host); a
// column that reads as another kind now is not the column the host asked for.
std::vector<ColumnPlan> planColumns(const TableDescription& description,
                                    const std::vector<std::string_view>& names,
                                    const std::vector<TdgValueKind>& kinds) {
    std::vector<ColumnPlan> plan;
    for (size_t i = 0; i < names.size(); ++i) {
        const PgColumn& column = columnNamed(description, names[i]);
        if (!kinds.empty() && column.info.kind != kinds[i]) {
            throw StaleDescription("column '" + column.info.name + "' is " + column.info.sqlType +
                                   " now");
        }
        plan.push_back(
            {column.info.name, column.conversion, column.resultType, column.arrayDimensions});
    }
    return plan;
}

std::string selectList(const std::vector<ColumnPlan>& plan) {
    std::string list;
    for (const ColumnPlan& column : plan) {
        if (!list.empty()) list += ", ";
        // Arrays as JSON keep nesting and NULL elements, which the array text form only
        // encodes in its own syntax.
        list += column.conversion == Conversion::ArrayJson
                    ? "pg_catalog.array_to_json(" + quoted(column.name) + ")"
                    : quoted(column.name);
    }
    return list;
}

bool isStaleSqlstate(const std::string& sqlstate) {
    // undefined column, datatype mismatch, undefined function, cannot coerce; or a failure of
    // the statement's name, which NamedStatements::failed has dealt with
    return sqlstate == "42703" || sqlstate == "42804" || sqlstate == "42883" ||
           sqlstate == "42846" || NamedStatements::isNameFailure(sqlstate);
}

// The result's column types are the ones the conversions were chosen for. Rows is RowStream or
// PipelinedRows.
template <typename Rows>
void requireTypes(const Rows& stream, const std::vector<ColumnPlan>& plan) {
    const std::vector<Oid>& types = stream.columnTypes();
    for (size_t i = 0; i < plan.size(); ++i) {
        if (types[i] != plan[i].resultType) {
            throw StaleDescription("column '" + plan[i].name + "' changed its type");
        }
    }
}

template <typename Rows>
void writeRow(const Rows& stream, size_t columns, CellWriter& writer, sdk::RowBatchBuilder& rows) {
    for (size_t i = 0; i < columns; ++i) {
        int column = static_cast<int>(i);
        writer.write(i, stream.isNull(column) ? std::nullopt : std::optional(stream.value(column)),
                     rows);
    }
    rows.endRow();
}

// The text of a scan's last key, one value per key column (empty before the first page).
using KeyText = std::vector<std::string>;

// Nothing to do for each row.
struct NoRowHook {
    void operator()() const {}
};

// Streams every row of `stream` into `rows`; the first `plan.size()` result columns are the
// requested ones, and the next ones (when `lastKey` is given) the scan key's columns. `onRow`
// sees each row before the next is read. Returns the number of rows read.
template <typename Rows, typename OnRow = NoRowHook>
int64_t streamRows(Rows& stream, const std::vector<ColumnPlan>& plan, CellWriter& writer,
                   sdk::RowBatchBuilder& rows, KeyText* lastKey = nullptr, OnRow onRow = {}) {
    int64_t count = 0;
    try {
        while (stream.next()) {
            if (count == 0) requireTypes(stream, plan);
            onRow();
            writeRow(stream, plan.size(), writer, rows);
            if (lastKey != nullptr) {
                for (size_t c = 0; c < lastKey->size(); ++c) {
                    (*lastKey)[c] = stream.value(static_cast<int>(plan.size() + c));
                }
            }
            ++count;
        }
    } catch (const sdk::DriverError& failure) {
        if (count == 0 && isStaleSqlstate(failure.sqlstate()))
            throw StaleDescription(failure.what());
        throw;
    }
    return count;
}

// Runs `read` with the cached description, and once more with a fresh one when the table
// turned out to have changed; when even the fresh one does not serve the request, the table
// changed under it (TDG_TABLE_CHANGED: the host describes it again and asks anew).
template <typename Read>
void withCurrentDescription(const Describer& describe, const sdk::TableName& table, Read&& read) {
    try {
        read(describe(false));
        return;
    } catch (const StaleDescription&) {
    }
    try {
        read(describe(true));
    } catch (const StaleDescription& stale) {
        throw sdk::tableChanged("table '" + table.display() +
                                "' changed under the read: " + stale.what());
    }
}

// A fetch planned from a table description: its columns' conversions and its statement, and
// the key's dense runs it reads as ranges, whose unasked rows the batch drops.
struct PlannedFetch {
    std::vector<ColumnPlan> plan;
    PipelinedStatement statement;
    std::optional<sdk::KeyRuns> runs;
    int keyColumn = 0;

    size_t rowsAtMost(const sdk::FetchRequest& request) const {
        return runs ? runs->rowsAtMost() : request.keyCount();
    }

    sdk::DroppingRowsNotAsked filter(sdk::RowBatchBuilder& rows) const {
        return {rows, runs ? &*runs : nullptr, keyColumn};
    }
};

// Binding the keys as an array of the key's own type lets the primary key index serve the
// lookup; a type without an array type is compared as text.
std::string keyOperand(const PgColumn& key) {
    return key.arrayType != 0 ? quoted(key.info.name) : quoted(key.info.name) + "::pg_catalog.text";
}

// Column c of every key, as one array parameter of the texts its type reads (key_codec.hpp).
std::string keyArray(const sdk::FetchRequest& request, const PgColumn& key, size_t c) {
    std::vector<std::string_view> values;
    values.reserve(request.keyCount());
    if (!keyNeedsInputText(key)) {
        if (request.keyColumns.size() == 1) return arrayLiteral(request.keys);
        for (size_t i = 0; i < request.keyCount(); ++i) values.push_back(request.key(i, c));
        return arrayLiteral(values);
    }
    std::vector<std::string> inputs;
    inputs.reserve(request.keyCount());
    for (size_t i = 0; i < request.keyCount(); ++i) {
        inputs.push_back(keyInputText(key, request.key(i, c)));
    }
    for (const std::string& input : inputs) values.push_back(input);
    return arrayLiteral(values);
}

// The size class of `count` ranges: a power of two, so that few statement shapes serve every
// fetch (padding repeats the last range, which matches no row twice).
size_t rangeSlots(size_t count) {
    size_t slots = 1;
    while (slots < count) slots *= 2;
    return slots;
}

// An integer key with dense runs of keys: `key = ANY ($1) OR key BETWEEN $2 AND $3 OR ...`,
// each run read as one range of the index (sdk/key_run.hpp). Empty otherwise.
std::string keyRunCondition(const PgColumn& key, const sdk::FetchRequest& request,
                            std::optional<sdk::KeyRuns>& runs, Params& params) {
    if (request.keyColumns.size() != 1 || key.conversion != Conversion::Int64) return {};
    runs = sdk::denseKeyRuns(request.keys);
    if (!runs) return {};
    const std::string column = quoted(key.info.name);
    params.add(arrayLiteral(runs->outside), key.arrayType);
    std::string condition = column + " = ANY ($1)";
    const size_t slots = rangeSlots(runs->ranges.size());
    for (size_t r = 0; r < slots; ++r) {
        const sdk::KeyRange& range = runs->ranges[std::min(r, runs->ranges.size() - 1)];
        params.add(std::to_string(range.first), oid::kInt8);
        params.add(std::to_string(range.last), oid::kInt8);
        condition += " OR " + column + " BETWEEN $" + std::to_string(2 * r + 2) + " AND $" +
                     std::to_string(2 * r + 3);
    }
    return condition;
}

// One-column keys: `key = ANY ($1)`. Composite keys: one array per key column, zipped into
// rows: `(a, b) IN (SELECT * FROM ROWS FROM (unnest($1), unnest($2)))`, index lookups (or a
// hash join for many keys), one statement for the whole batch.
PlannedFetch planFetch(const TableDescription& description, const sdk::FetchRequest& request) {
    PlannedFetch fetch;
    fetch.plan = planColumns(description, request.columns, request.columnKinds);
    const std::string head =
        "SELECT " + selectList(fetch.plan) + " FROM " + tableSql(request.table) + " WHERE ";
    fetch.statement.context = "reading table '" + request.table.display() + "'";
    fetch.statement.reusable = true;
    const PgColumn& first = columnNamed(description, request.keyColumns[0]);
    if (std::string range = keyRunCondition(first, request, fetch.runs, fetch.statement.params);
        !range.empty()) {
        // Only a fetch with keys has runs; its key column is one of its columns (dialect_abi.h).
        fetch.keyColumn =
            static_cast<int>(sdk::keyPositions(request.columns, request.keyColumns)[0]);
        fetch.statement.sql = head + range;
        return fetch;
    }
    std::string operands, arrays;
    for (size_t c = 0; c < request.keyColumns.size(); ++c) {
        const PgColumn& key = columnNamed(description, request.keyColumns[c]);
        operands += (c == 0 ? "" : ", ") + keyOperand(key);
        arrays += (c == 0 ? "pg_catalog.unnest($" : ", pg_catalog.unnest($") +
                  std::to_string(c + 1) + ")";
        fetch.statement.params.add(keyArray(request, key, c),
                                   key.arrayType != 0 ? key.arrayType : oid::kTextArray);
    }
    std::string where = request.keyColumns.size() == 1
                            ? operands + " = ANY ($1)"
                            : "(" + operands + ") IN (SELECT * FROM ROWS FROM (" + arrays + "))";
    fetch.statement.sql = head + where;
    return fetch;
}

void fetchOnce(Session& session, const TableDescription& description,
               const sdk::FetchRequest& request, sdk::RowBatchBuilder& rows) {
    PlannedFetch fetch = planFetch(description, request);
    RowStream stream(session, fetch.statement.sql, fetch.statement.params, fetch.statement.context,
                     fetch.statement.reusable);
    CellWriter writer(session.unrepresentable(), request.table.display(), fetch.plan);
    const sdk::DroppingRowsNotAsked filtered = fetch.filter(rows);
    streamRows(stream, fetch.plan, writer, rows);
}

// Sends every request with a key at once and streams their rows in order. Returns how many
// requests are done: one whose table changed under the cached description stops it there,
// before any of its rows, for the caller to read it and the rest one by one.
size_t fetchPipelined(Session& session, const TableDescriber& describe,
                      const std::vector<sdk::FetchRequest>& requests,
                      const std::vector<sdk::RowBatchBuilder*>& rows) {
    std::vector<PlannedFetch> fetches;
    std::vector<PipelinedStatement> statements;
    ResultWidths& widths = session.resultWidths();
    try {
        for (const sdk::FetchRequest& request : requests) {
            fetches.push_back(planFetch(describe(request.table, false), request));
            PipelinedStatement& statement = fetches.back().statement;
            statement.singleRow =
                !widths.fitsBuffer(request.table.display(), fetches.back().rowsAtMost(request));
            // The statement moves on to the pipeline; the plan stays for reading the rows.
            if (!request.keys.empty()) statements.push_back(std::move(statement));
        }
    } catch (const StaleDescription&) {
        return 0;
    }
    if (statements.empty()) {
        for (sdk::RowBatchBuilder* builder : rows) builder->finish();
        return requests.size();
    }
    PipelinedRows pipeline(session, std::move(statements));
    for (size_t i = 0; i < requests.size(); ++i) {
        if (!requests[i].keys.empty()) {
            pipeline.nextStatement();
            const std::string table = requests[i].table.display();
            CellWriter writer(session.unrepresentable(), table, fetches[i].plan);
            const auto noteWidth = [&] { widths.noteRow(table, pipeline.rowBytes()); };
            try {
                const sdk::DroppingRowsNotAsked filtered = fetches[i].filter(*rows[i]);
                streamRows(pipeline, fetches[i].plan, writer, *rows[i], nullptr, noteWidth);
            } catch (const StaleDescription&) {
                return i;
            }
        }
        rows[i]->finish();
    }
    return requests.size();
}

// A key cell of the host's (TdgScanRequest.after_key) as the text the column's type reads:
// the inverse of CellWriter's conversion.
std::string keyTextOfCell(const PgColumn& column, const sdk::TableName& table,
                          const TdgCell& cell) {
    const std::string_view text(cell.data, static_cast<size_t>(cell.size));
    switch (column.conversion) {
        case Conversion::Int64:
            return cell.kind == TDG_KIND_INT64 ? std::to_string(cell.i64) : std::string(text);
        case Conversion::Bool:
            return cell.i64 != 0 ? "true" : "false";
        case Conversion::Bytes:
            return byteaHexInput(text);
        case Conversion::ArrayJson:
            throw sdk::DriverError(TDG_INVALID_ARGUMENT,
                                   "table '" + table.display() + "' cannot be read in chunks: " +
                                       "its key column '" + column.info.name + "' is an array");
        default:
            return std::string(text);
    }
}

// One keyset batch in key order: rows with key > `after` (all when empty), at most `limit`.
// When `lastKey` is given, the key columns are selected once more as the server prints them,
// and the last row's are kept there, to start the next batch after. A composite key compares
// as a row value, which the primary key index serves in key order.
int64_t scanBatch(Session& session, const TableDescription& description,
                  const sdk::ScanRequest& request, int64_t limit, const KeyText& after,
                  KeyText* lastKey, sdk::RowBatchBuilder& rows) {
    std::vector<ColumnPlan> plan = planColumns(description, request.columns, request.columnKinds);
    const bool first = after.empty();
    Params params;
    params.add(std::to_string(limit), oid::kInt8);
    std::string keys, notNull, placeholders;
    for (size_t c = 0; c < request.keyColumns.size(); ++c) {
        const PgColumn& key = columnNamed(description, request.keyColumns[c]);
        keys += (c == 0 ? "" : ", ") + quoted(key.info.name);
        notNull += (c == 0 ? "" : " AND ") + quoted(key.info.name) + " IS NOT NULL";
        placeholders += (c == 0 ? "$" : ", $") + std::to_string(c + 2);
        if (!first) params.add(after[c], key.baseType);
    }
    const bool composite = request.keyColumns.size() > 1;
    std::string sql = "SELECT " + selectList(plan) + (lastKey != nullptr ? ", " + keys : "") +
                      " FROM " + tableSql(request.table) + " WHERE " + notNull +
                      (first       ? std::string()
                       : composite ? " AND (" + keys + ") > (" + placeholders + ")"
                                   : " AND " + keys + " > " + placeholders) +
                      " ORDER BY " + keys + " LIMIT $1";

    RowStream stream(session, sql, params, "scanning table '" + request.table.display() + "'");
    CellWriter writer(session.unrepresentable(), request.table.display(), plan);
    // Moved forward only once the batch is read: a batch retried with a fresh description
    // starts from the same key.
    KeyText next(lastKey != nullptr ? request.keyColumns.size() : 0);
    int64_t read = streamRows(stream, plan, writer, rows, lastKey != nullptr ? &next : nullptr);
    if (read > 0 && lastKey != nullptr) *lastKey = std::move(next);
    return read;
}

}  // namespace

void fetchRows(Session& session, const Describer& describe, const sdk::FetchRequest& request,
               sdk::RowBatchBuilder& rows) {
    if (request.keys.empty()) return;
    session.releaseDroppedStatements();
    withCurrentDescription(describe, request.table, [&](const TableDescription& description) {
        fetchOnce(session, description, request, rows);
    });
}

void fetchRowsMany(Session& session, const TableDescriber& describe,
                   const std::vector<sdk::FetchRequest>& requests,
                   const std::vector<sdk::RowBatchBuilder*>& rows) {
    session.releaseDroppedStatements();
    size_t done = requests.size() > 1 ? fetchPipelined(session, describe, requests, rows) : 0;
    for (size_t i = done; i < requests.size(); ++i) {
        const sdk::TableName& table = requests[i].table;
        fetchRows(
            session, [&](bool fresh) -> const TableDescription& { return describe(table, fresh); },
            requests[i], *rows[i]);
        rows[i]->finish();
    }
}

void scanTable(Session& session, const Describer& describe, const sdk::ScanRequest& request,
               sdk::RowBatchBuilder& rows) {
    int64_t limit = request.batchRows > 0 ? request.batchRows : kDefaultScanBatch;
    KeyText lastKey;
    for (;;) {
        if (session.cancelled()) throw sdk::DriverError(TDG_CANCELLED, "scan cancelled");
        int64_t read = 0;
        withCurrentDescription(describe, request.table, [&](const TableDescription& description) {
            read = scanBatch(session, description, request, limit, lastKey, &lastKey, rows);
        });
        if (read < limit) return;
    }
}

void scanChunk(Session& session, const Describer& describe, const sdk::ScanRequest& request,
               sdk::RowBatchBuilder& rows) {
    withCurrentDescription(describe, request.table, [&](const TableDescription& description) {
        KeyText after;
        for (size_t c = 0; c < request.afterKey.size(); ++c) {
            const PgColumn& key = columnNamed(description, request.keyColumns[c]);
            after.push_back(keyTextOfCell(key, request.table, request.afterKey[c]));
        }
        scanBatch(session, description, request, request.maxRows, after, nullptr, rows);
    });
}

}  // namespace tapdiffgen::postgres

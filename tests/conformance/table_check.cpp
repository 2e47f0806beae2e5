// check "table": one table's description, full scan and key fetches.
//
//   {"check": "table", "table": "Order", "key": "id", "batch_rows": 2,
//    "columns": [{"name": "id", "kind": "int64", "primary_key": true,
//                 "schema": {"type": "integer"}}, ...],
//    "rows": [[1, "a"], ...],                       all rows, columns in describe order
//    "fetches": [{"keys": ["1", "9"], "columns": ["select", "id"], "batch_rows": 1,
//                 "rows": [["a", 1]]}, ...]}
// A composite key is a list, "key": ["order_id", "line_no"], and each of its fetch keys a list
// of texts in that order: "keys": [["1", "a"], ["2", "b"]]. Requests carry the kinds
// describe_table reported (ABI revision 2). With two fetches or more they are also sent at once
// through fetch_rows_many (fetch_many.hpp). Every DECIMAL value must also fit the multipleOf
// of its column's schema, so a schema never rejects the values it describes.
// "server_time_zones": ["+05:30", "-03:00"] runs it all once per zone (checkTable below).
#include <Poco/JSON/Parser.h>

#include <cmath>

#include "case_result.hpp"
#include "catalog/stream_definition.hpp"
#include "cell_text.hpp"
#include "chunk_scan.hpp"
#include "expected_json.hpp"
#include "fetch_many.hpp"
#include "live_cases.hpp"
#include "live_connection.hpp"
#include "record_check.hpp"
#include "row_collector.hpp"
#include "setup_sql.hpp"
#include "tap-diffgen/sdk/values.hpp"

namespace tapdiffgen::conformance {
namespace {

using core::ColumnDescription;
using Poco::JSON::Object;

void checkColumn(const ColumnDescription& actual, const Object::Ptr& expected, size_t index) {
    const std::string name = textOf(expected, "name");
    const std::string where = "column " + std::to_string(index + 1) + " ('" + name + "')";
    require(actual.name == name, where + " is named '" + actual.name + "'");
    require(actual.ordinal == static_cast<int>(index + 1),
            where + " has ordinal " + std::to_string(actual.ordinal));
    TdgValueKind kind = kindFromName(textOf(expected, "kind"));
    require(actual.kind == kind, where + " is " + kindName(actual.kind) + ", expected " +
                                     kindName(kind) + " (sql type " + actual.sqlType + ")");
    if (expected->has("primary_key")) {
        require(actual.primaryKey == expected->getValue<bool>("primary_key"),
                where + (actual.primaryKey ? " is" : " is not") + " reported as the primary key");
    }
    if (expected->has("nullable")) {
        require(actual.nullable == expected->getValue<bool>("nullable"),
                where + (actual.nullable ? " is" : " is not") + " reported as nullable");
    }
    if (expected->has("sql_type")) {
        require(actual.sqlType == textOf(expected, "sql_type"),
                where + " has sql type '" + actual.sqlType + "'");
    }
    if (Object::Ptr schema = expected->getObject("schema"); !schema.isNull()) {
        Object::Ptr parsed;
        try {
            parsed = Poco::JSON::Parser().parse(actual.jsonSchema).extract<Object::Ptr>();
        } catch (const std::exception&) {
            throw CaseFailure(where +
                              " has a json_schema that is not a JSON object: " + actual.jsonSchema);
        }
        std::string difference;
        require(containsSchema(parsed, schema, difference),
                where + " schema " + actual.jsonSchema + ": " + difference);
    }
}

// Rows as expected.json writes them, read exactly (numbers keep their text).
std::vector<RowText> expectedRows(const testing::ExactJson& rows,
                                  const std::vector<TdgValueKind>& kinds) {
    std::vector<RowText> result;
    for (size_t r = 0; r < rows.items().size(); ++r) {
        const testing::ExactJson& row = rows.items()[r];
        require(row.type() == testing::ExactJson::Type::Array && row.items().size() == kinds.size(),
                "expected.json: row " + std::to_string(r + 1) + " must have " +
                    std::to_string(kinds.size()) + " values");
        RowText text;
        for (size_t c = 0; c < kinds.size(); ++c) {
            try {
                text.push_back(expectedText(row.items()[c], kinds[c]));
            } catch (const std::exception& failure) {
                throw CaseFailure("row " + std::to_string(r + 1) + ": " + failure.what());
            }
        }
        result.push_back(std::move(text));
    }
    std::sort(result.begin(), result.end());
    return result;
}

struct Columns {
    std::vector<std::string> names;
    std::vector<TdgValueKind> kinds;
    std::vector<std::string> schemas;
};

Columns pickColumns(const std::vector<ColumnDescription>& described,
                    const std::vector<std::string>& names) {
    Columns picked;
    for (const std::string& name : names) {
        auto found = std::find_if(described.begin(), described.end(),
                                  [&](const ColumnDescription& c) { return c.name == name; });
        require(found != described.end(), "expected.json names unknown column '" + name + "'");
        picked.names.push_back(name);
        picked.kinds.push_back(found->kind);
        picked.schemas.push_back(found->jsonSchema);
    }
    return picked;
}

std::vector<RowText> scan(core::DialectConnection& connection, const core::TableRef& table,
                          const Columns& columns, const core::KeySpec& key, int64_t batchRows) {
    RowCollector collector(columns.names, columns.kinds);
    RecordCheck records(columns.names, columns.schemas, key.names());
    connection.scanTable(table, columns.names, &columns.kinds, key, batchRows,
                         [&](const TdgRowBatch& batch) {
                             collector.add(batch);
                             records.check(batch);
                         });
    return collector.sortedRows();
}

std::vector<RowText> fetch(core::DialectConnection& connection, const core::TableRef& table,
                           const Columns& columns, const core::KeySpec& key,
                           const std::vector<std::string>& keys, int64_t batchRows) {
    RowCollector collector(columns.names, columns.kinds);
    RecordCheck records(columns.names, columns.schemas, key.names());
    core::FetchSpec spec{
        &table, &columns.names, &columns.kinds, &key, keys, [&](const TdgRowBatch& batch) {
            collector.add(batch);
            records.check(batch);
        }};
    connection.fetchRows(spec, batchRows);
    return collector.sortedRows();
}

// "key": "id" or ["a", "b"], with the kinds describe_table reported.
core::KeySpec keyOf(const Object::Ptr& expected, const std::vector<ColumnDescription>& described) {
    std::vector<std::string> names = expected->isArray("key")
                                         ? stringsOf(arrayOf(expected, "key"))
                                         : std::vector<std::string>{textOf(expected, "key")};
    core::KeySpec key;
    for (const std::string& name : names) {
        core::KeyColumn keyColumn{name, TDG_KIND_TEXT, false, "", -1};
        for (const ColumnDescription& column : described) {
            if (column.name == name) keyColumn = core::keyColumnOf(column);
        }
        key.columns.push_back(std::move(keyColumn));
    }
    return key;
}

// A fetch's keys, flattened: each key's texts in key column order.
std::vector<std::string> fetchKeys(const Object::Ptr& request, const core::KeySpec& key) {
    if (!key.composite()) return stringsOf(arrayOf(request, "keys"));
    std::vector<std::string> flat;
    auto keys = arrayOf(request, "keys");
    for (size_t i = 0; i < keys->size(); ++i) {
        std::vector<std::string> parts = stringsOf(keys->getArray(static_cast<unsigned>(i)));
        require(parts.size() == key.columns.size(), "a fetch key has the wrong number of values");
        flat.insert(flat.end(), parts.begin(), parts.end());
    }
    return flat;
}

// The decimal places a multipleOf allows: 0.0001 → 4; nullopt when there is none or it is not
// a power of ten (then nothing is checked).
std::optional<int> placesAllowed(const std::string& jsonSchema) {
    Object::Ptr schema = Poco::JSON::Parser().parse(jsonSchema).extract<Object::Ptr>();
    if (!schema->has("multipleOf")) return std::nullopt;
    double step = schema->getValue<double>("multipleOf");
    if (!(step > 0)) return std::nullopt;
    long places = std::lround(-std::log10(step));
    if (std::fabs(std::pow(10.0, static_cast<double>(-places)) - step) > step * 1e-9) {
        return std::nullopt;
    }
    return places < 0 ? 0 : static_cast<int>(places);
}

// Python's default decimal context: `value % multipleOf` of a quotient with more digits raises
// DivisionImpossible in jsonschema, singer-python and singer-check-tap.
constexpr int kConsumerDigits = sdk::kLargestCheckedPrecision;

// The digits of value / 10^-places: the integer part's significant digits and `places`.
int quotientDigits(const std::string& value, int places) {
    std::string plain = value.substr(value[0] == '-' ? 1 : 0);
    const std::string whole = plain.substr(0, plain.find('.'));
    const size_t first = whole.find_first_not_of('0');
    return (first == std::string::npos ? 0 : static_cast<int>(whole.size() - first)) + places;
}

void checkMultipleOf(const std::vector<ColumnDescription>& described,
                     const std::vector<RowText>& rows) {
    for (size_t c = 0; c < described.size(); ++c) {
        if (described[c].kind != TDG_KIND_DECIMAL) continue;
        std::optional<int> allowed = placesAllowed(described[c].jsonSchema);
        if (!allowed) continue;
        const std::string uncheckable =
            " digits, beyond the 28 of Python's default decimal context: a consumer checking the "
            "multipleOf of schema " +
            described[c].jsonSchema +
            " raises DivisionImpossible (emit multipleOf only up to 28 digits, "
            "sdk::jsonSchemaForDecimal)";
        require(described[c].precision <= kConsumerDigits,
                "column '" + described[c].name + "' is declared with " +
                    std::to_string(described[c].precision) + uncheckable);
        for (const RowText& row : rows) {
            const std::string& value = row[c];
            if (value == "null" || value.rfind("invalid", 0) == 0) continue;
            require(decimalPlaces(value) <= *allowed,
                    "column '" + described[c].name + "' has the value " + value +
                        ", which its schema " + described[c].jsonSchema + " rejects");
            require(quotientDigits(value, *allowed) <= kConsumerDigits,
                    "column '" + described[c].name + "' has the value " + value + " of " +
                        std::to_string(quotientDigits(value, *allowed)) + uncheckable);
        }
    }
}

// The table read again through scan_chunk in chunks of maxRows: the same rows, each once.
std::string checkChunks(core::DialectConnection& connection, const core::TableRef& table,
                        const Columns& columns, const core::KeySpec& key,
                        const std::vector<RowText>& rows, int64_t maxRows) {
    core::ScanSpec spec{&table, &columns.names, &columns.kinds, &key, 0};
    std::optional<ChunkedRows> chunked = scanInChunks(connection, spec, maxRows, rows.size());
    if (!chunked) return "no scan_chunk";
    requireChunkedRows(table.name, maxRows, rows, *chunked);
    return "scan_chunk in " + std::to_string(chunked->chunks) + " chunks";
}

}  // namespace

// The check on one connection, opened for it (so that it starts in the server's time zone of
// the moment).
std::string checkTableOnce(const LiveContext& context, const CaseFiles& files) {
    const Object::Ptr& expected = files.expected;
    core::TableRef table{expected->optValue<std::string>("schema", ""), textOf(expected, "table")};
    auto connection = openConnection(context, files);
    std::string stage = "describe_table";
    try {
        std::vector<ColumnDescription> described = connection->describeTable(table);
        std::vector<Object::Ptr> columns = objectsOf(arrayOf(expected, "columns"));
        require(described.size() == columns.size(),
                "describe_table reported " + std::to_string(described.size()) + " columns, " +
                    std::to_string(columns.size()) + " expected");
        std::vector<std::string> allNames;
        for (size_t i = 0; i < columns.size(); ++i) {
            checkColumn(described[i], columns[i], i);
            allNames.push_back(described[i].name);
        }
        Columns all = pickColumns(described, allNames);
        const core::KeySpec key = keyOf(expected, described);
        int64_t batchRows = expected->optValue<int64_t>("batch_rows", 0);
        stage = "scan_table";
        std::vector<RowText> scanned = scan(*connection, table, all, key, batchRows);
        const std::vector<RowText> allRows = expectedRows(files.exact.at("rows"), all.kinds);
        requireSameRows("scan_table", allRows, scanned);
        checkMultipleOf(described, scanned);
        stage = "scan_chunk";
        const std::string chunked = checkChunks(*connection, table, all, key, allRows,
                                                expected->optValue<int64_t>("chunk_rows", 2));
        std::vector<PlannedFetch> planned;
        if (expected->has("fetches")) {
            const std::vector<Object::Ptr> requests = objectsOf(arrayOf(expected, "fetches"));
            for (size_t f = 0; f < requests.size(); ++f) {
                const Object::Ptr& request = requests[f];
                Columns picked =
                    request->has("columns")
                        ? pickColumns(described, stringsOf(arrayOf(request, "columns")))
                        : all;
                std::vector<std::string> keys = fetchKeys(request, key);
                stage = "fetch_rows " + rowDisplay(keys);
                std::vector<RowText> rows =
                    expectedRows(files.exact.at("fetches").items()[f].at("rows"), picked.kinds);
                requireSameRows("fetch_rows " + rowDisplay(keys), rows,
                                fetch(*connection, table, picked, key, keys,
                                      request->optValue<int64_t>("batch_rows", 0)));
                planned.push_back({picked.names, picked.kinds, keys, rows});
            }
        }
        stage = "fetch_rows_many";
        std::string many = checkFetchRowsMany(context, *connection, table, key, planned, batchRows);
        return std::to_string(described.size()) + " columns, " +
               std::to_string(arrayOf(expected, "rows")->size()) + " rows, " +
               std::to_string(planned.size()) + " fetches, " + chunked +
               (many.empty() ? "" : ", " + many);
    } catch (const core::DialectError& failure) {
        throw CaseFailure(stage + ": " + describeError(failure));
    }
}

// With "server_time_zones", writer.sql (with "{time_zone}" replaced by each zone in turn) sets
// the server's time zone for new sessions before the check runs again: a plugin must read every
// time type the same in any of them.
std::string checkTable(const LiveContext& context, const CaseFiles& files) {
    if (!files.expected->has("server_time_zones")) return checkTableOnce(context, files);
    require(files.writerSql.has_value() && context.setupCommand.has_value(),
            "expected.json: server_time_zones needs a writer.sql that sets the time zone");
    std::string detail;
    for (const std::string& zone : stringsOf(arrayOf(files.expected, "server_time_zones"))) {
        std::string sql = *files.writerSql;
        for (size_t at = sql.find("{time_zone}"); at != std::string::npos;
             at = sql.find("{time_zone}", at + zone.size())) {
            sql.replace(at, std::string("{time_zone}").size(), zone);
        }
        runSql(*context.setupCommand, sql, "writer SQL (the server's time zone " + zone + ")");
        try {
            detail = checkTableOnce(context, files);
        } catch (const CaseFailure& failure) {
            throw CaseFailure("with the server's time zone " + zone + ": " + failure.what());
        }
    }
    return detail + ", under the server's time zones " +
           rowDisplay(stringsOf(arrayOf(files.expected, "server_time_zones")));
}

}  // namespace tapdiffgen::conformance

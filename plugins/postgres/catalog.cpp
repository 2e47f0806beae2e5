#include "catalog.hpp"

#include <map>
#include <optional>

#include "array_literal.hpp"
#include "key_codec.hpp"
#include "statement.hpp"
#include "tap-diffgen/sdk/errors.hpp"

namespace tapdiffgen::postgres {
namespace {

// The requested tables, numbered (ord) in the order given, each with its oid (relid). Without a
// schema, the table the search_path finds first: exactly the one an unqualified name in the row
// queries will read. relid is NULL when there is none; an empty schema stands for none (no
// schema has an empty name).
const std::string kWantedTables = R"SQL(
WITH wanted AS MATERIALIZED (
SELECT t.ord,
       (SELECT c.oid
          FROM pg_catalog.pg_class c
          JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
         WHERE c.relname = t.relname
           AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
           AND CASE WHEN t.nspname = '' THEN pg_catalog.pg_table_is_visible(c.oid)
                    ELSE n.nspname = t.nspname END
         LIMIT 1) AS relid
  FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS t(nspname, relname, ord))
)SQL";

// One row per requested table, in the order given: ord and relid.
const std::string kFindRelations = kWantedTables + "SELECT ord, relid FROM wanted ORDER BY ord";

// Every requested table's columns in one statement, the page's check of the tables it touches
// being one round trip: first a row for each requested table (ord and relid, relid NULL when
// there is none), in the order given, then a row for each column of the tables found (ord NULL,
// relid, then the column's facts), by table and column number. The columns are read as they
// were in two statements (the relids through a sub-select: with an array in the condition,
// PostgreSQL 15 spent 30 times longer on 500 tables), so that the base type of each column type
// is resolved once (Memoize). Domains are followed down to their base type (and its typmod, for
// numeric precision); an array is a type that is its element type's typarray (not merely one
// with a typelem, like name or point).
const std::string kColumns = kWantedTables + R"SQL(
SELECT * FROM (
SELECT ord, relid, NULL::name, NULL::text, NULL::int2, NULL::bool, NULL::bool, NULL::oid,
       NULL::int4, NULL::oid, NULL::oid, NULL::int4
  FROM wanted
UNION ALL
SELECT NULL::bigint,
       a.attrelid,
       a.attname,
       pg_catalog.format_type(a.atttypid, a.atttypmod),
       a.attnum,
       a.attnotnull,
       COALESCE(a.attnum = ANY (pk.indkey::int2[]), false),
       base.oid,
       base.typmod,
       bt.typarray,
       CASE WHEN et.typarray = bt.oid THEN elem.oid ELSE 0 END,
       a.attndims
  FROM pg_catalog.pg_attribute a
  CROSS JOIN LATERAL (
        WITH RECURSIVE chain(oid, typmod, depth) AS (
             SELECT a.atttypid, a.atttypmod, 0
             UNION ALL
             SELECT t.typbasetype, t.typtypmod, c.depth + 1
               FROM chain c JOIN pg_catalog.pg_type t ON t.oid = c.oid
              WHERE t.typtype = 'd')
        SELECT oid, typmod FROM chain ORDER BY depth DESC LIMIT 1) base
  JOIN pg_catalog.pg_type bt ON bt.oid = base.oid
  LEFT JOIN pg_catalog.pg_type et ON et.oid = bt.typelem
  LEFT JOIN LATERAL (
        WITH RECURSIVE chain(oid, depth) AS (
             SELECT et.oid, 0
             UNION ALL
             SELECT t.typbasetype, c.depth + 1
               FROM chain c JOIN pg_catalog.pg_type t ON t.oid = c.oid
              WHERE t.typtype = 'd')
        SELECT oid FROM chain ORDER BY depth DESC LIMIT 1) elem ON true
  LEFT JOIN pg_catalog.pg_index pk ON pk.indrelid = a.attrelid AND pk.indisprimary
 WHERE a.attrelid = ANY (ARRAY(SELECT relid FROM wanted WHERE relid IS NOT NULL))
   AND a.attnum > 0
   AND NOT a.attisdropped) described
 ORDER BY 1 NULLS LAST, 2, 5
)SQL";

// One row per requested table, in the order given: ord, relid, and a digest of everything a
// description of its columns depends on (their numbers, names, types and type modifiers,
// nullability, array dimensions, and the primary key), NULL when there is no such table. It
// reads pg_attribute and pg_index by their indexes on the table's oid: a small fraction of what
// describing the columns costs, which follows domains down to their base types.
const std::string kDigests = kWantedTables + R"SQL(
SELECT w.ord, w.relid,
       (SELECT pg_catalog.md5(pg_catalog.string_agg(
                   a.attnum || ':' || a.attname || ':' || a.atttypid || ':' || a.atttypmod || ':' ||
                   a.attnotnull || ':' || a.attndims, ',' ORDER BY a.attnum))
          FROM pg_catalog.pg_attribute a
         WHERE a.attrelid = w.relid AND a.attnum > 0 AND NOT a.attisdropped) || ';' ||
       coalesce((SELECT pk.indkey::text FROM pg_catalog.pg_index pk
                  WHERE pk.indrelid = w.relid AND pk.indisprimary), '')
  FROM wanted w
 ORDER BY w.ord
)SQL";

// $1 and $2 of kWantedTables: the tables' schemas ('' for none) and names.
Params wantedTables(const std::vector<sdk::TableName>& tables) {
    std::vector<std::string_view> schemas, names;
    for (const auto& table : tables) {
        schemas.emplace_back(table.schema ? std::string_view(*table.schema) : std::string_view());
        names.emplace_back(table.name);
    }
    Params params;
    params.add(arrayLiteral(schemas), oid::kTextArray).add(arrayLiteral(names), oid::kTextArray);
    return params;
}

// The column on `row` of a kColumns result, whose first two result columns are ord and relid.
PgColumn columnFrom(const Result& rows, int row) {
    constexpr int at = 2;
    TypeFacts facts;
    facts.baseType = catalogNumber<Oid>(rows.value(row, at + 5));
    facts.typmod = catalogNumber<int>(rows.value(row, at + 6));
    facts.elementType = catalogNumber<Oid>(rows.value(row, at + 8));
    facts.dimensions = catalogNumber<int>(rows.value(row, at + 9));
    TypeMapping mapping = mapType(facts);

    PgColumn column;
    column.info.name = rows.value(row, at);
    column.info.sqlType = rows.value(row, at + 1);
    column.info.ordinal = catalogNumber<int>(rows.value(row, at + 2));
    column.info.nullable = rows.value(row, at + 3) != "t";
    column.info.primaryKey = rows.value(row, at + 4) == "t";
    column.info.kind = mapping.kind;
    column.info.precision = mapping.precision;
    column.info.scale = mapping.scale;
    column.info.jsonSchema = mapping.jsonSchema;
    describeKeyUse(facts, mapping, column.info);
    column.conversion = mapping.conversion;
    column.resultType = mapping.resultType;
    column.baseType = facts.baseType;
    column.arrayType = catalogNumber<Oid>(rows.value(row, at + 7));
    column.arrayDimensions = mapping.arrayDimensions;
    return column;
}

}  // namespace

std::vector<std::optional<std::string>> relationOids(Session& session,
                                                     const std::vector<sdk::TableName>& tables) {
    Result found = execute(session, kFindRelations, wantedTables(tables),
                           tables.size() == 1 ? "looking up table '" + tables[0].display() + "'"
                                              : "looking up the tables");
    std::vector<std::optional<std::string>> relations;
    for (int row = 0; row < found.rows(); ++row) {
        std::optional<std::string_view> relation = found.optional(row, 1);
        relations.push_back(relation ? std::optional<std::string>(*relation) : std::nullopt);
    }
    return relations;
}

// Prepared once per session: run for every page, it is not planned again each time.
std::vector<std::optional<std::string>> columnDigests(Session& session,
                                                      const std::vector<sdk::TableName>& tables) {
    RowStream rows(session, kDigests, wantedTables(tables), "checking the tables' columns", true);
    std::vector<std::optional<std::string>> digests;
    while (rows.next()) {
        if (rows.isNull(1) || rows.isNull(2)) {
            digests.emplace_back(std::nullopt);
        } else {
            digests.emplace_back(std::string(rows.value(1)) + "/" + std::string(rows.value(2)));
        }
    }
    return digests;
}

const PgColumn* TableDescription::find(std::string_view name) const {
    for (const PgColumn& column : columns) {
        if (column.info.name == name) return &column;
    }
    return nullptr;
}

std::vector<TableDescription> describeTables(Session& session,
                                             const std::vector<sdk::TableName>& tables) {
    if (tables.empty()) return {};
    Result rows = execute(session, kColumns, wantedTables(tables),
                          tables.size() == 1 ? "describing table '" + tables[0].display() + "'"
                                             : "describing the tables");
    // The table rows: which requested tables each relation answers (a table named twice gets
    // its columns twice).
    std::vector<TableDescription> described(tables.size());
    std::multimap<std::string_view, size_t> tablesOf;
    int row = 0;
    for (; row < rows.rows() && rows.optional(row, 0); ++row) {
        const size_t table = catalogNumber<size_t>(rows.value(row, 0)) - 1;
        const std::optional<std::string_view> relation = rows.optional(row, 1);
        if (!relation) {
            throw sdk::notFound("table '" + tables.at(table).display() + "' does not exist");
        }
        tablesOf.emplace(*relation, table);
    }
    for (; row < rows.rows(); ++row) {
        auto [first, last] = tablesOf.equal_range(rows.value(row, 1));
        for (auto it = first; it != last; ++it) {
            described.at(it->second).columns.push_back(columnFrom(rows, row));
        }
    }
    return described;
}

TableDescription describeTable(Session& session, const sdk::TableName& table) {
    return std::move(describeTables(session, {table}).front());
}

std::optional<int64_t> estimateRows(Session& session, const sdk::TableName& table) {
    std::optional<std::string> relation = relationOids(session, {table}).front();
    if (!relation) throw sdk::notFound("table '" + table.display() + "' does not exist");
    Params params;
    params.add(*relation, oid::kOid);
    Result rows = execute(session,
                          "SELECT pg_catalog.round(reltuples)::int8 FROM pg_catalog.pg_class "
                          "WHERE oid = $1",
                          params, "estimating the rows of table '" + table.display() + "'");
    if (rows.rows() == 0 || rows.isNull(0, 0)) return std::nullopt;
    const auto estimate = catalogNumber<int64_t>(rows.value(0, 0));
    if (estimate < 0) return std::nullopt;
    return estimate;
}

}  // namespace tapdiffgen::postgres

#include "catalog.hpp"

#include <map>
#include <optional>

#include "array_literal.hpp"
#include "statement.hpp"
#include "tap-diffgen/sdk/errors.hpp"

namespace tapdiffgen::postgres {
namespace {

// Without a schema, the table the search_path finds first: exactly the one an unqualified
// name in the row queries will read. One row per requested table, in the order given, its oid
// NULL when there is none; an empty schema stands for none (no schema has an empty name).
constexpr const char* kFindRelations = R"SQL(
SELECT t.ord,
       (SELECT c.oid
          FROM pg_catalog.pg_class c
          JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
         WHERE c.relname = t.relname
           AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
           AND CASE WHEN t.nspname = '' THEN pg_catalog.pg_table_is_visible(c.oid)
                    ELSE n.nspname = t.nspname END
         LIMIT 1)
  FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS t(nspname, relname, ord)
 ORDER BY t.ord
)SQL";

// The oids go through a sub-select: with the array itself in the condition, PostgreSQL 15
// spent 30 times longer on 500 tables (440 ms against 14 ms, measured).
// Domains are followed down to their base type (and its typmod, for numeric precision);
// an array is a type that is its element type's typarray (not merely one with a typelem,
// like name or point).
constexpr const char* kColumns = R"SQL(
SELECT a.attname,
       pg_catalog.format_type(a.atttypid, a.atttypmod),
       a.attnum,
       a.attnotnull,
       COALESCE(a.attnum = ANY (pk.indkey::int2[]), false),
       base.oid,
       base.typmod,
       bt.typarray,
       CASE WHEN et.typarray = bt.oid THEN elem.oid ELSE 0 END,
       a.attndims,
       a.attrelid
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
 WHERE a.attrelid = ANY (ARRAY(SELECT unnest($1::oid[])))
   AND a.attnum > 0
   AND NOT a.attisdropped
 ORDER BY a.attrelid, a.attnum
)SQL";

// The oid of each table, in the order given; notFound naming the first that does not exist.
std::vector<std::string> findRelations(Session& session,
                                       const std::vector<sdk::TableName>& tables) {
    std::vector<std::optional<std::string>> found = relationOids(session, tables);
    std::vector<std::string> relations;
    for (size_t i = 0; i < found.size(); ++i) {
        if (!found[i]) throw sdk::notFound("table '" + tables[i].display() + "' does not exist");
        relations.push_back(std::move(*found[i]));
    }
    return relations;
}

PgColumn columnFrom(const Result& rows, int row) {
    TypeFacts facts;
    facts.baseType = catalogNumber<Oid>(rows.value(row, 5));
    facts.typmod = catalogNumber<int>(rows.value(row, 6));
    facts.elementType = catalogNumber<Oid>(rows.value(row, 8));
    facts.dimensions = catalogNumber<int>(rows.value(row, 9));
    TypeMapping mapping = mapType(facts);

    PgColumn column;
    column.info.name = rows.value(row, 0);
    column.info.sqlType = rows.value(row, 1);
    column.info.ordinal = catalogNumber<int>(rows.value(row, 2));
    column.info.nullable = rows.value(row, 3) != "t";
    column.info.primaryKey = rows.value(row, 4) == "t";
    column.info.kind = mapping.kind;
    column.info.precision = mapping.precision;
    column.info.scale = mapping.scale;
    column.info.jsonSchema = mapping.jsonSchema;
    column.conversion = mapping.conversion;
    column.resultType = mapping.resultType;
    column.baseType = facts.baseType;
    column.arrayType = catalogNumber<Oid>(rows.value(row, 7));
    return column;
}

}  // namespace

std::vector<std::optional<std::string>> relationOids(Session& session,
                                                     const std::vector<sdk::TableName>& tables) {
    std::vector<std::string_view> schemas, names;
    for (const auto& table : tables) {
        schemas.emplace_back(table.schema ? std::string_view(*table.schema) : std::string_view());
        names.emplace_back(table.name);
    }
    Params params;
    params.add(arrayLiteral(schemas), oid::kTextArray).add(arrayLiteral(names), oid::kTextArray);
    Result found = execute(session, kFindRelations, params,
                           tables.size() == 1 ? "looking up table '" + tables[0].display() + "'"
                                              : "looking up the tables");
    std::vector<std::optional<std::string>> relations;
    for (int row = 0; row < found.rows(); ++row) {
        std::optional<std::string_view> relation = found.optional(row, 1);
        relations.push_back(relation ? std::optional<std::string>(*relation) : std::nullopt);
    }
    return relations;
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
    const std::vector<std::string> relations = findRelations(session, tables);
    std::vector<std::string_view> oids(relations.begin(), relations.end());
    Params params;
    params.add(arrayLiteral(oids), oid::kOidArray);
    Result rows = execute(session, kColumns, params,
                          tables.size() == 1 ? "describing table '" + tables[0].display() + "'"
                                             : "describing the tables");
    std::map<std::string_view, TableDescription> byRelation;
    for (int row = 0; row < rows.rows(); ++row) {
        byRelation[rows.value(row, 10)].columns.push_back(columnFrom(rows, row));
    }
    // A table named twice gets its columns twice.
    std::vector<TableDescription> described;
    for (const auto& relation : relations) described.push_back(byRelation[relation]);
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

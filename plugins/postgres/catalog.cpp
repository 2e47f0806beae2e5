#include "catalog.hpp"

#include <charconv>

#include "statement.hpp"
#include "tap-diffgen/sdk/errors.hpp"

namespace tapdiffgen::postgres {
namespace {

// Without a schema, the table the search_path finds first: exactly the one an unqualified
// name in the row queries will read.
constexpr const char* kFindRelation = R"SQL(
SELECT c.oid
  FROM pg_catalog.pg_class c
  JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
 WHERE c.relname = $2
   AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
   AND CASE WHEN $1 IS NULL THEN pg_catalog.pg_table_is_visible(c.oid)
            ELSE n.nspname = $1 END
)SQL";

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
 WHERE a.attrelid = $1
   AND a.attnum > 0
   AND NOT a.attisdropped
 ORDER BY a.attnum
)SQL";

template <typename Number>
Number parseNumber(std::string_view text) {
    Number value{};
    auto parsed = std::from_chars(text.data(), text.data() + text.size(), value);
    if (parsed.ec != std::errc()) {
        throw sdk::DriverError(TDG_INTERNAL, "unexpected catalog value: " + std::string(text));
    }
    return value;
}

std::string findRelation(Session& session, const sdk::TableName& table) {
    Params params;
    params.add(table.schema, oid::kText).add(table.name, oid::kText);
    Result found =
        execute(session, kFindRelation, params, "looking up table '" + table.display() + "'");
    if (found.rows() == 0) {
        throw sdk::notFound("table '" + table.display() + "' does not exist");
    }
    return std::string(found.value(0, 0));
}

PgColumn columnFrom(const Result& rows, int row) {
    TypeFacts facts;
    facts.baseType = parseNumber<Oid>(rows.value(row, 5));
    facts.typmod = parseNumber<int>(rows.value(row, 6));
    facts.elementType = parseNumber<Oid>(rows.value(row, 8));
    facts.dimensions = parseNumber<int>(rows.value(row, 9));
    TypeMapping mapping = mapType(facts);

    PgColumn column;
    column.info.name = rows.value(row, 0);
    column.info.sqlType = rows.value(row, 1);
    column.info.ordinal = parseNumber<int>(rows.value(row, 2));
    column.info.nullable = rows.value(row, 3) != "t";
    column.info.primaryKey = rows.value(row, 4) == "t";
    column.info.kind = mapping.kind;
    column.info.precision = mapping.precision;
    column.info.scale = mapping.scale;
    column.info.jsonSchema = mapping.jsonSchema;
    column.conversion = mapping.conversion;
    column.resultType = mapping.resultType;
    column.baseType = facts.baseType;
    column.arrayType = parseNumber<Oid>(rows.value(row, 7));
    return column;
}

}  // namespace

const PgColumn* TableDescription::find(std::string_view name) const {
    for (const PgColumn& column : columns) {
        if (column.info.name == name) return &column;
    }
    return nullptr;
}

TableDescription describeTable(Session& session, const sdk::TableName& table) {
    std::string relation = findRelation(session, table);
    Params params;
    params.add(relation, oid::kOid);
    Result rows = execute(session, kColumns, params, "describing table '" + table.display() + "'");
    TableDescription description;
    for (int row = 0; row < rows.rows(); ++row) {
        description.columns.push_back(columnFrom(rows, row));
    }
    return description;
}

}  // namespace tapdiffgen::postgres

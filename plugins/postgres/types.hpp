// PostgreSQL types → ABI value kinds, text conversions and JSON schemas. Types are recognised
// by the OID of their base type (domains resolved), which never changes for built-in types;
// every type not listed here (enums, interval, inet, money, ranges, extension types such as
// citext, ...) is carried as its server text form.
#pragma once

#include <libpq-fe.h>

#include <string>

#include "tap-diffgen/dialect_abi.h"

namespace tapdiffgen::postgres {

/// Built-in type OIDs (pg_type.oid, stable across versions).
namespace oid {
inline constexpr Oid kBool = 16;
inline constexpr Oid kBytea = 17;
inline constexpr Oid kChar = 18;
inline constexpr Oid kName = 19;
inline constexpr Oid kInt8 = 20;
inline constexpr Oid kInt2 = 21;
inline constexpr Oid kInt4 = 23;
inline constexpr Oid kText = 25;
inline constexpr Oid kOid = 26;
inline constexpr Oid kJson = 114;
inline constexpr Oid kFloat4 = 700;
inline constexpr Oid kFloat8 = 701;
inline constexpr Oid kBpchar = 1042;
inline constexpr Oid kVarchar = 1043;
inline constexpr Oid kDate = 1082;
inline constexpr Oid kTime = 1083;
inline constexpr Oid kTimestamp = 1114;
inline constexpr Oid kTimestampTz = 1184;
inline constexpr Oid kTimeTz = 1266;
inline constexpr Oid kNumeric = 1700;
inline constexpr Oid kUuid = 2950;
inline constexpr Oid kJsonb = 3802;
inline constexpr Oid kTextArray = 1009;
inline constexpr Oid kOidArray = 1028;
}  // namespace oid

/// How a column's text value becomes a cell.
enum class Conversion {
    Int64,
    Bool,
    Numeric,
    Float,
    Text,
    Date,
    Timestamp,
    TimestampTz,
    Time,
    Json,
    Bytes,
    ArrayJson,  // selected as array_to_json(col)
};

/// What the catalog says about a column's type.
struct TypeFacts {
    Oid baseType = 0;     // after resolving domains
    int typmod = -1;      // of the base type (numeric precision and scale)
    Oid elementType = 0;  // arrays only: the element's base type
    int dimensions = 0;   // declared array dimensions (pg_attribute.attndims)
};

/// How the driver reads and describes a column of that type.
struct TypeMapping {
    TdgValueKind kind;
    Conversion conversion;
    Oid resultType;  // the OID the select list produces (json for arrays)
    int precision;
    int scale;
    std::string jsonSchema;
    /// The dimensions an array's schema nests its items in, which its values must have; 0 for
    /// anything else, and for arrays of JSON documents, whose items may be arrays themselves.
    int arrayDimensions = 0;
};

TypeMapping mapType(const TypeFacts& facts);

}  // namespace tapdiffgen::postgres

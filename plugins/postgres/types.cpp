#include "types.hpp"

#include <algorithm>

#include "tap-diffgen/sdk/values.hpp"

namespace tapdiffgen::postgres {
namespace {

struct Scalar {
    TdgValueKind kind;
    Conversion conversion;
};

Scalar scalarFor(Oid type) {
    switch (type) {
        case oid::kInt2:
        case oid::kInt4:
        case oid::kInt8:
        case oid::kOid:
            return {TDG_KIND_INT64, Conversion::Int64};
        case oid::kNumeric:
            return {TDG_KIND_DECIMAL, Conversion::Numeric};
        case oid::kFloat4:
        case oid::kFloat8:
            return {TDG_KIND_DECIMAL, Conversion::Float};
        case oid::kBool:
            return {TDG_KIND_BOOL, Conversion::Bool};
        case oid::kDate:
            return {TDG_KIND_DATE, Conversion::Date};
        case oid::kTimestamp:
            return {TDG_KIND_TIMESTAMP, Conversion::Timestamp};
        case oid::kTimestampTz:
            return {TDG_KIND_TIMESTAMPTZ, Conversion::TimestampTz};
        case oid::kTime:
        case oid::kTimeTz:
            return {TDG_KIND_TIME, Conversion::Time};
        case oid::kJson:
        case oid::kJsonb:
            return {TDG_KIND_JSON, Conversion::Json};
        case oid::kBytea:
            return {TDG_KIND_BYTES, Conversion::Bytes};
        default:
            return {TDG_KIND_TEXT, Conversion::Text};
    }
}

// numeric's typmod packs ((precision << 16) | scale) + 4; PostgreSQL 15 made the scale an
// 11-bit signed field (numeric(3,-2)), which older servers never produce.
void numericPrecisionScale(int typmod, int& precision, int& scale) {
    precision = -1;
    scale = -1;
    if (typmod < 4) return;
    int packed = typmod - 4;
    precision = (packed >> 16) & 0xffff;
    int signedScale = ((packed & 0x7ff) ^ 1024) - 1024;
    if (signedScale >= 0) scale = signedScale;
}

std::string scalarSchema(Oid type, TdgValueKind kind, int precision, int scale) {
    if (kind == TDG_KIND_DECIMAL) return sdk::jsonSchemaForDecimal(precision, scale);
    // A time with time zone keeps format time (RFC 3339's full-time, offset included); a time
    // without one is a plain string, as in every dialect.
    if (type == oid::kTimeTz) return sdk::jsonSchemaForKind(kind, -1, "time");
    return sdk::jsonSchemaForKind(kind, scale, type == oid::kUuid ? "uuid" : "");
}

// {"type":"x",...} → {"type":["x","null"],...}: array elements may be NULL.
std::string allowNull(const std::string& schema) {
    const std::string prefix = R"({"type":")";
    if (schema.compare(0, prefix.size(), prefix) != 0) return schema;  // {} allows null already
    size_t end = schema.find('"', prefix.size());
    std::string type = schema.substr(prefix.size(), end - prefix.size());
    return R"({"type":[")" + type + R"(","null"])" + schema.substr(end + 1);
}

// array_to_json writes numbers, booleans and JSON as themselves and everything else as
// strings (timestamps in its own format), so only those element kinds keep their schema.
std::string elementSchema(Oid element) {
    Scalar scalar = scalarFor(element);
    switch (scalar.kind) {
        case TDG_KIND_INT64:
        case TDG_KIND_BOOL:
        case TDG_KIND_JSON:
            return allowNull(sdk::jsonSchemaForKind(scalar.kind));
        case TDG_KIND_DECIMAL:
            // NaN and Infinity elements arrive as strings.
            return R"({"type":["number","string","null"]})";
        case TDG_KIND_DATE:
            return R"({"type":["string","null"],"format":"date"})";
        default:
            return allowNull(scalarSchema(element, TDG_KIND_TEXT, -1, -1));
    }
}

std::string arraySchema(const TypeFacts& facts) {
    // PostgreSQL does not enforce dimensions; the declared count is the best available hint.
    std::string items = elementSchema(facts.elementType);
    for (int level = 1; level < facts.dimensions; ++level) {
        items = R"({"type":["array","null"],"items":)" + items + "}";
    }
    return R"({"type":"array","items":)" + items + "}";
}

}  // namespace

TypeMapping mapType(const TypeFacts& facts) {
    if (facts.elementType != 0) {
        const bool jsonItems = scalarFor(facts.elementType).kind == TDG_KIND_JSON;
        return {TDG_KIND_JSON,
                Conversion::ArrayJson,
                oid::kJson,
                -1,
                -1,
                arraySchema(facts),
                jsonItems ? 0 : std::max(1, facts.dimensions)};
    }
    Scalar scalar = scalarFor(facts.baseType);
    TypeMapping mapping{scalar.kind, scalar.conversion, facts.baseType, -1, -1, {}};
    if (facts.baseType == oid::kNumeric) {
        numericPrecisionScale(facts.typmod, mapping.precision, mapping.scale);
    }
    mapping.jsonSchema =
        scalarSchema(facts.baseType, scalar.kind, mapping.precision, mapping.scale);
    return mapping;
}

}  // namespace tapdiffgen::postgres

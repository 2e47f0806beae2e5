#include "types.hpp"

#include <algorithm>

#include "tap-diffgen/sdk/values.hpp"

namespace tapdiffgen::mysql {
namespace {

constexpr unsigned kBinaryCharset = 63;

bool oneOf(std::string_view value, std::initializer_list<std::string_view> choices) {
    return std::find(choices.begin(), choices.end(), value) != choices.end();
}

bool startsWith(std::string_view text, std::string_view prefix) {
    return text.substr(0, prefix.size()) == prefix;
}

// BIT(64) does not fit INT64 once its top bit is set: it travels as exact digits instead, like
// BIGINT UNSIGNED.
FieldCodec codecForBits(unsigned long width) {
    if (width == 1) return {TDG_KIND_BOOL, Decoder::Bits};
    if (width >= 64) return {TDG_KIND_DECIMAL, Decoder::Bits};
    return {TDG_KIND_INT64, Decoder::Bits};
}

FieldCodec codecForString(const FieldInfo& field, bool declaredJson) {
    if (field.isBinary()) return {TDG_KIND_BYTES, Decoder::Text};
    return {declaredJson ? TDG_KIND_JSON : TDG_KIND_TEXT, Decoder::Text};
}

KindAndSchema plain(TdgValueKind kind) { return {kind, sdk::jsonSchemaForKind(kind)}; }

// Exact digits in a DECIMAL cell, but the values are whole numbers: say so in the schema.
KindAndSchema integerDigits() { return {TDG_KIND_DECIMAL, sdk::jsonSchemaForKind(TDG_KIND_INT64)}; }

KindAndSchema classifyNumeric(const CatalogType& type) {
    const std::string& data = type.dataType;
    if (data == "tinyint") {
        return plain(startsWith(type.columnType, "tinyint(1)") ? TDG_KIND_BOOL : TDG_KIND_INT64);
    }
    if (data == "bigint") {
        bool isUnsigned = type.columnType.find("unsigned") != std::string::npos;
        return isUnsigned ? integerDigits() : plain(TDG_KIND_INT64);
    }
    if (data == "bit") {
        unsigned width = bitWidth(type.columnType);
        if (width == 1) return plain(TDG_KIND_BOOL);
        return width >= 64 ? integerDigits() : plain(TDG_KIND_INT64);
    }
    if (oneOf(data, {"decimal", "numeric"})) {
        return {TDG_KIND_DECIMAL, sdk::jsonSchemaForDecimal(type.precision, type.scale)};
    }
    if (oneOf(data, {"float", "double", "real", "double precision"})) {
        return plain(TDG_KIND_DECIMAL);
    }
    return plain(TDG_KIND_INT64);  // smallint, mediumint, int, integer, year
}

bool isNumeric(std::string_view data) {
    return oneOf(data,
                 {"tinyint", "smallint", "mediumint", "int", "integer", "bigint", "year", "bit",
                  "decimal", "numeric", "float", "double", "real", "double precision"});
}

bool isBinaryType(std::string_view data) {
    return oneOf(data, {"binary", "varbinary", "tinyblob", "blob", "mediumblob", "longblob",
                        "geometry", "point", "linestring", "polygon", "multipoint",
                        "multilinestring", "multipolygon", "geometrycollection", "geomcollection"});
}

}  // namespace

FieldInfo FieldInfo::from(const MYSQL_FIELD& field) {
    FieldInfo info;
    info.name.assign(field.name, field.name_length);
    info.type = field.type;
    info.flags = field.flags;
    info.length = field.length;
    info.charset = field.charsetnr;
    info.decimals = field.decimals;
    return info;
}

bool FieldInfo::isBinary() const { return charset == kBinaryCharset; }

bool FieldInfo::isInteger() const {
    switch (type) {
        case MYSQL_TYPE_TINY:
        case MYSQL_TYPE_SHORT:
        case MYSQL_TYPE_INT24:
        case MYSQL_TYPE_LONG:
        case MYSQL_TYPE_LONGLONG:
        case MYSQL_TYPE_YEAR:
            return true;
        default:
            return false;
    }
}

FieldCodec codecForField(const FieldInfo& field, bool declaredJson) {
    Decoder integer = field.isUnsigned() ? Decoder::UnsignedInt : Decoder::SignedInt;
    switch (field.type) {
        case MYSQL_TYPE_TINY:
            // tinyint(1) is how MySQL spells BOOLEAN; the display width is all that is left of it.
            if (field.length == 1) return {TDG_KIND_BOOL, integer};
            return {TDG_KIND_INT64, integer};
        case MYSQL_TYPE_SHORT:
        case MYSQL_TYPE_INT24:
        case MYSQL_TYPE_LONG:
        case MYSQL_TYPE_YEAR:
            return {TDG_KIND_INT64, integer};
        case MYSQL_TYPE_LONGLONG:
            return {field.isUnsigned() ? TDG_KIND_DECIMAL : TDG_KIND_INT64, integer};
        case MYSQL_TYPE_BIT:
            return codecForBits(field.length);
        case MYSQL_TYPE_FLOAT:
            return {TDG_KIND_DECIMAL, Decoder::Float};
        case MYSQL_TYPE_DOUBLE:
            return {TDG_KIND_DECIMAL, Decoder::Double};
        case MYSQL_TYPE_DECIMAL:
        case MYSQL_TYPE_NEWDECIMAL:
            return {TDG_KIND_DECIMAL, Decoder::Text};
        case MYSQL_TYPE_DATE:
            return {TDG_KIND_DATE, Decoder::Date};
        case MYSQL_TYPE_NEWDATE:
            return {TDG_KIND_DATE, Decoder::Text};
        case MYSQL_TYPE_TIME:
            return {TDG_KIND_TIME, Decoder::Time};
        case MYSQL_TYPE_DATETIME:
            return {TDG_KIND_TIMESTAMP, Decoder::DateTime};
        case MYSQL_TYPE_TIMESTAMP:
            return {TDG_KIND_TIMESTAMPTZ, Decoder::DateTime};
        case MYSQL_TYPE_JSON:
            return {TDG_KIND_JSON, Decoder::Text};
        case MYSQL_TYPE_GEOMETRY:
            return {TDG_KIND_BYTES, Decoder::Text};
        default:
            return codecForString(field, declaredJson);
    }
}

KindAndSchema classifyCatalogType(const CatalogType& type) {
    const std::string& data = type.dataType;
    if (isNumeric(data)) return classifyNumeric(type);
    if (data == "json") return plain(TDG_KIND_JSON);
    if (data == "date") return plain(TDG_KIND_DATE);
    // A TIME is a duration from -838:59:59 to 838:59:59, not a time of day: format time (RFC
    // 3339, hours 00 to 23) would not hold it.
    if (data == "time") return {TDG_KIND_TIME, sdk::jsonSchemaForKind(TDG_KIND_TEXT)};
    if (data == "datetime") return plain(TDG_KIND_TIMESTAMP);
    if (data == "timestamp") return plain(TDG_KIND_TIMESTAMPTZ);
    if (isBinaryType(data)) return plain(TDG_KIND_BYTES);
    // MariaDB's UUID (10.7) reads as canonical lowercase text, as PostgreSQL's uuid does.
    if (data == "uuid") return {TDG_KIND_TEXT, sdk::jsonSchemaForKind(TDG_KIND_TEXT, -1, "uuid")};
    // char, varchar, the text family, enum, set, and types read as their text (inet6).
    return plain(type.declaredJson ? TDG_KIND_JSON : TDG_KIND_TEXT);
}

unsigned bitWidth(std::string_view columnType) {
    size_t open = columnType.find('(');
    if (open == std::string_view::npos) return 1;
    unsigned width = 0;
    for (size_t i = open + 1; i < columnType.size() && columnType[i] >= '0' && columnType[i] <= '9';
         ++i) {
        width = width * 10 + static_cast<unsigned>(columnType[i] - '0');
    }
    return width == 0 ? 1 : width;
}

}  // namespace tapdiffgen::mysql

// How MySQL/MariaDB column types map to the ABI's value kinds, decided in two places that must
// agree: the catalog (information_schema, for describe_table) and the result metadata of each
// statement (for the values themselves).
#pragma once

#include <mysql.h>

#include <string>
#include <string_view>

#include "tap-diffgen/dialect_abi.h"

namespace tapdiffgen::mysql {

/// The part of a result column's metadata the driver uses, copied out of the client library.
struct FieldInfo {
    std::string name;
    enum_field_types type = MYSQL_TYPE_NULL;
    unsigned flags = 0;
    unsigned long length = 0;  // display width for numbers, bits for BIT
    unsigned charset = 0;      // 63 = binary
    unsigned decimals = 0;

    static FieldInfo from(const MYSQL_FIELD& field);
    bool isUnsigned() const { return (flags & UNSIGNED_FLAG) != 0; }
    bool isBinary() const;
    /// Integer types whose values fit a signed or unsigned 64-bit integer.
    bool isInteger() const;
};

/// How a fetched value becomes a cell.
enum class Decoder {
    SignedInt,    // INT64, or BOOL for tinyint(1)
    UnsignedInt,  // INT64, or DECIMAL digits for bigint unsigned
    Bits,         // BIT(n): the big-endian bytes as an integer
    Float,        // FLOAT: shortest text that reads back as the same float
    Double,       // DOUBLE: shortest round-trip text
    Text,         // the bytes as sent (strings, decimals, JSON, binary)
    Date,
    Time,
    DateTime,  // DATETIME (TIMESTAMP kind) and TIMESTAMP (TIMESTAMPTZ kind)
};

struct FieldCodec {
    TdgValueKind kind = TDG_KIND_TEXT;
    Decoder decoder = Decoder::Text;
};

/// From result metadata; `declaredJson` marks a MariaDB JSON column (LONGTEXT + json_valid).
FieldCodec codecForField(const FieldInfo& field, bool declaredJson);

/// A column as information_schema.COLUMNS describes it.
struct CatalogType {
    std::string dataType;    // DATA_TYPE, lower case: "tinyint", "decimal", "longtext"
    std::string columnType;  // COLUMN_TYPE: "tinyint(1)", "bigint(20) unsigned"
    int precision = -1;      // NUMERIC_PRECISION, -1 when NULL
    int scale = -1;          // NUMERIC_SCALE, -1 when NULL
    bool declaredJson = false;
};

struct KindAndSchema {
    TdgValueKind kind = TDG_KIND_TEXT;
    std::string jsonSchema;
};

/// The kind and JSON schema describe_table reports; agrees with codecForField.
KindAndSchema classifyCatalogType(const CatalogType& type);

/// The n of "bit(n)" (1 when absent).
unsigned bitWidth(std::string_view columnType);

}  // namespace tapdiffgen::mysql

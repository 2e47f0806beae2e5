#include "key_codec.hpp"

#include <charconv>

#include "key_values.hpp"
#include "number_text.hpp"
#include "tap-diffgen/sdk/errors.hpp"
#include "tap-diffgen/sdk/key_text.hpp"

namespace tapdiffgen::mysql {
namespace {

// Floating point has no exact key text; BLOB and TEXT columns can only be keyed by a prefix,
// so a key text names many rows; JSON and spatial values have no equality a key could use.
constexpr std::string_view kNoKeyTypes[] = {
    "float",         "double",          "real",         "tinyblob",
    "blob",          "mediumblob",      "longblob",     "tinytext",
    "text",          "mediumtext",      "longtext",     "json",
    "geometry",      "point",           "linestring",   "polygon",
    "multipoint",    "multilinestring", "multipolygon", "geometrycollection",
    "geomcollection"};

bool isClockType(std::string_view dataType) {
    return dataType == "datetime" || dataType == "timestamp" || dataType == "time";
}

bool isBinaryString(const FieldInfo& field) {
    if (!field.isBinary()) return false;
    switch (field.type) {
        case MYSQL_TYPE_STRING:
        case MYSQL_TYPE_VAR_STRING:
        case MYSQL_TYPE_VARCHAR:
        case MYSQL_TYPE_TINY_BLOB:
        case MYSQL_TYPE_BLOB:
        case MYSQL_TYPE_MEDIUM_BLOB:
        case MYSQL_TYPE_LONG_BLOB:
            return true;
        default:
            return false;
    }
}

bool isClockField(const FieldInfo& field) {
    return field.type == MYSQL_TYPE_DATE || field.type == MYSQL_TYPE_TIME ||
           field.type == MYSQL_TYPE_DATETIME || field.type == MYSQL_TYPE_TIMESTAMP;
}

[[noreturn]] void notAKey(std::string_view key, std::string_view columnName, const char* what) {
    constexpr size_t kShown = 64;
    std::string shown(key.substr(0, kShown));
    throw sdk::DriverError(TDG_INVALID_DATA, "key '" + shown + "' is not a valid value of " + what +
                                                 " column '" + std::string(columnName) + "'");
}

// A BOOL key's canonical text is "true" or "false" (dialect_abi.h, "Key texts"), and MySQL
// keeps booleans as numbers: BIT(1), and TINYINT(1) where it is declared BOOLEAN.
std::string_view numberOfKeyText(std::string_view key) {
    if (key == "true") return "1";
    if (key == "false") return "0";
    return key;
}

template <typename Number>
Number wholeKey(std::string_view key, std::string_view columnName) {
    Number value = 0;
    if (!parseWhole(numberOfKeyText(key), value)) notAKey(key, columnName, "integer");
    return value;
}

MYSQL_TIME clockKey(std::string_view key, const FieldInfo& field, std::string_view columnName) {
    MYSQL_TIME time{};
    if (!parseKeyTime(key, field.type, time)) notAKey(key, columnName, "date or time");
    return time;
}

std::string bytesKey(std::string_view key, std::string_view columnName) {
    std::string bytes;
    if (!sdk::bytesOfKeyText(key, bytes)) notAKey(key, columnName, "binary (hex)");
    return bytes;
}

}  // namespace

void describeKeyUse(const CatalogType& type, sdk::ColumnInfo& info) {
    info.keySupport = sdk::keySupportOfKind(info.kind);
    for (std::string_view refused : kNoKeyTypes) {
        if (type.dataType == refused) info.keySupport = TDG_KEY_SUPPORT_NO;
    }
    if (isClockType(type.dataType)) info.scale = sdk::fractionDigitsOfType(type.columnType, 0);
}

void bindKey(Params& params, std::string_view key, const FieldInfo& keyField,
             std::string_view columnName) {
    if (keyField.isInteger()) {
        if (keyField.isUnsigned()) {
            params.addUInt64(wholeKey<uint64_t>(key, columnName));
        } else {
            params.addInt64(wholeKey<int64_t>(key, columnName));
        }
    } else if (keyField.type == MYSQL_TYPE_BIT) {
        params.addUInt64(wholeKey<uint64_t>(key, columnName));
    } else if (isClockField(keyField)) {
        // The session is in UTC: a TIMESTAMP's instant is its UTC date and time.
        params.addTime(clockKey(key, keyField, columnName),
                       keyField.type == MYSQL_TYPE_TIMESTAMP ? MYSQL_TYPE_DATETIME : keyField.type);
    } else if (isBinaryString(keyField)) {
        params.addBytes(bytesKey(key, columnName));
    } else {
        params.addText(key);
    }
}

void appendKeyLiteral(std::string& sql, MYSQL* connection, std::string_view key,
                      const FieldInfo& keyField, std::string_view columnName) {
    char digits[24];
    std::to_chars_result printed{};
    if (keyField.isInteger() && !keyField.isUnsigned()) {
        printed =
            std::to_chars(digits, digits + sizeof(digits), wholeKey<int64_t>(key, columnName));
    } else if (keyField.isInteger() || keyField.type == MYSQL_TYPE_BIT) {
        printed =
            std::to_chars(digits, digits + sizeof(digits), wholeKey<uint64_t>(key, columnName));
    } else if (isBinaryString(keyField)) {
        bytesKey(key, columnName);  // validated: only hex digits reach the statement
        sql += "X'";
        sql += key;
        sql += '\'';
        return;
    } else {
        if (isClockField(keyField)) {
            clockKey(key, keyField, columnName);
            key = sdk::utcClockOfKeyText(key);
        }
        appendTextLiteral(sql, connection, key,
                          "a key of column '" + std::string(columnName) + "'");
        return;
    }
    sql.append(digits, printed.ptr);
}

std::vector<std::string> orderedLabels(std::string_view columnType) {
    std::vector<std::string> labels;
    if (columnType.rfind("enum(", 0) != 0 && columnType.rfind("set(", 0) != 0) return labels;
    size_t at = columnType.find('(') + 1;
    while (at < columnType.size() && columnType[at] == '\'') {
        std::string label;
        for (++at; at < columnType.size(); ++at) {
            if (columnType[at] == '\'') {
                if (at + 1 < columnType.size() && columnType[at + 1] == '\'') {
                    label.push_back('\'');
                    ++at;
                    continue;
                }
                break;
            }
            label.push_back(columnType[at]);
        }
        labels.push_back(std::move(label));
        at += 2;  // past the closing quote and the comma (or the parenthesis)
    }
    return labels;
}

std::optional<uint64_t> labelNumber(std::string_view text, const std::vector<std::string>& labels,
                                    bool isSet) {
    auto indexOf = [&](std::string_view label) -> std::optional<uint64_t> {
        for (size_t i = 0; i < labels.size(); ++i) {
            if (labels[i] == label) return static_cast<uint64_t>(i);
        }
        return std::nullopt;
    };
    if (!isSet) {
        auto index = indexOf(text);
        return index ? std::optional<uint64_t>(*index + 1) : std::nullopt;
    }
    uint64_t bits = 0;
    while (!text.empty()) {
        const size_t comma = text.find(',');
        auto index = indexOf(text.substr(0, comma));
        if (!index || *index >= 64) return std::nullopt;
        bits |= uint64_t{1} << *index;
        if (comma == std::string_view::npos) break;
        text.remove_prefix(comma + 1);
    }
    return bits;
}

}  // namespace tapdiffgen::mysql

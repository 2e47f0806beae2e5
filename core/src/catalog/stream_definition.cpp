#include "catalog/stream_definition.hpp"

#include <Poco/JSON/Parser.h>

#include <algorithm>
#include <stdexcept>

#include "singer/json_text.hpp"

namespace tapdiffgen::core {

bool sameDescription(const ColumnDescription& a, const ColumnDescription& b) {
    return a.name == b.name && a.ordinal == b.ordinal && a.kind == b.kind &&
           a.sqlType == b.sqlType && a.precision == b.precision && a.scale == b.scale &&
           a.nullable == b.nullable && a.primaryKey == b.primaryKey && a.jsonSchema == b.jsonSchema;
}

bool holdsUuids(const ColumnDescription& column) {
    try {
        auto schema =
            Poco::JSON::Parser().parse(column.jsonSchema).extract<Poco::JSON::Object::Ptr>();
        return schema && schema->optValue<std::string>("format", "") == "uuid";
    } catch (const Poco::Exception&) {
        return false;  // not an object: no format
    } catch (const std::exception&) {
        return false;
    }
}

KeyColumn keyColumnOf(const ColumnDescription& column) {
    return KeyColumn{column.name, column.kind, holdsUuids(column), column.sqlType, column.scale};
}

std::optional<std::string> reservedColumnOf(const StreamDefinition& stream) {
    for (const auto& column : stream.columns) {
        if (column.name == kIsDeleted || column.name == kDiffgenTsCreated ||
            column.name == kDeletedAt) {
            return column.name;
        }
    }
    return std::nullopt;
}

std::vector<const ColumnDescription*> StreamDefinition::selectedColumns() const {
    std::vector<const ColumnDescription*> out;
    for (const StreamColumn& column : columns) {
        if (column.selected || key.contains(column.name)) out.push_back(&column);
    }
    return out;
}

std::string nullableSchema(const std::string& schemaJson) {
    // Driver schemas start with a single "type" string (sdk::jsonSchemaForKind); widen it in
    // place. Anything else (a schema with no type accepts null already, or a custom shape) is
    // wrapped.
    const std::string typePrefix = R"({"type":")";
    if (schemaJson.rfind(typePrefix, 0) == 0) {
        size_t end = schemaJson.find('"', typePrefix.size());
        if (end != std::string::npos) {
            std::string type = schemaJson.substr(typePrefix.size(), end - typePrefix.size());
            if (type == "null") return schemaJson;
            return R"({"type":[")" + type + R"(","null"])" + schemaJson.substr(end + 1);
        }
    }
    if (schemaJson == "{}" || schemaJson.find("\"type\"") == std::string::npos) return schemaJson;
    return R"({"anyOf":[)" + schemaJson + R"(,{"type":"null"}]})";
}

std::string StreamDefinition::schemaFor(
    const std::vector<const ColumnDescription*>& selected) const {
    std::string json = R"({"type":"object","properties":{)";
    for (const ColumnDescription* column : selected) {
        appendJsonString(json, column->name);
        json.push_back(':');
        json +=
            key.contains(column->name) ? column->jsonSchema : nullableSchema(column->jsonSchema);
        json.push_back(',');
    }
    json += R"("is_deleted":{"type":"boolean"},)";
    json += R"("_sdc_diffgen_ts_created":{"type":"string","format":"date-time"})";
    if (addDeletedAt) {
        json += R"(,"_sdc_deleted_at":{"type":["string","null"],"format":"date-time"})";
    }
    json += R"(},"required":[)";
    for (size_t i = 0; i < key.columns.size(); ++i) {
        if (i > 0) json.push_back(',');
        appendJsonString(json, key.columns[i].name);
    }
    json += "]}";
    return json;
}

std::string StreamDefinition::schemaJson() const { return schemaFor(selectedColumns()); }

std::string StreamDefinition::fullSchemaJson() const {
    std::vector<const ColumnDescription*> all;
    for (const auto& column : columns) all.push_back(&column);
    return schemaFor(all);
}

}  // namespace tapdiffgen::core

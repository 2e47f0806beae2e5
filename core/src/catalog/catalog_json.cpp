#include "catalog/catalog_json.hpp"

#include <Poco/JSON/Parser.h>

#include <algorithm>
#include <map>

#include "singer/json_text.hpp"

namespace tapdiffgen::core {
namespace {

void appendColumnMetadata(std::string& json, const std::string& column, bool automatic) {
    json += R"(,{"breadcrumb":["properties",)";
    appendJsonString(json, column);
    json += R"(],"metadata":{"inclusion":")";
    json += automatic ? "automatic" : "available";
    json += R"(","selected-by-default":true}})";
}

void appendNameList(std::string& json, const std::vector<std::string>& names) {
    for (size_t i = 0; i < names.size(); ++i) {
        if (i > 0) json.push_back(',');
        appendJsonString(json, names[i]);
    }
}

void appendStream(std::string& json, const StreamDefinition& stream) {
    json += R"({"tap_stream_id":)";
    appendJsonString(json, stream.name);
    json += R"(,"stream":)";
    appendJsonString(json, stream.name);
    json += R"(,"table_name":)";
    appendJsonString(json, stream.table.name);
    json += R"(,"replication_method":"LOG_BASED","key_properties":[)";
    appendNameList(json, stream.key.names());
    json += R"(],"schema":)";
    json += stream.fullSchemaJson();
    json += R"(,"metadata":[{"breadcrumb":[],"metadata":{"inclusion":"available",)";
    json += R"("selected-by-default":true,"table-key-properties":[)";
    appendNameList(json, stream.key.names());
    json += R"(],"forced-replication-method":"LOG_BASED")";
    if (!stream.table.schema.empty()) {
        json += R"(,"schema-name":)";
        appendJsonString(json, stream.table.schema);
    }
    json += "}}";
    for (const auto& column : stream.columns) {
        appendColumnMetadata(json, column.name, stream.key.contains(column.name));
    }
    for (const char* extra : {kIsDeleted, kDiffgenTsCreated}) {
        appendColumnMetadata(json, extra, true);
    }
    if (stream.addDeletedAt) appendColumnMetadata(json, kDeletedAt, true);
    json += "]}";
}

// Resolves one metadata entry's selection with the SDK's precedence.
bool isSelected(const Poco::JSON::Object::Ptr& metadata, bool parentSelected) {
    if (metadata.isNull()) return parentSelected;
    if (metadata->has("inclusion") && metadata->getValue<std::string>("inclusion") == "automatic") {
        return true;
    }
    if (metadata->has("inclusion") &&
        metadata->getValue<std::string>("inclusion") == "unsupported") {
        return false;
    }
    if (metadata->has("selected")) return metadata->getValue<bool>("selected");
    if (metadata->has("selected-by-default"))
        return metadata->getValue<bool>("selected-by-default");
    return parentSelected;
}

std::string streamId(const Poco::JSON::Object::Ptr& entry) {
    if (entry->has("tap_stream_id")) return entry->getValue<std::string>("tap_stream_id");
    if (entry->has("stream")) return entry->getValue<std::string>("stream");
    return {};
}

void applyEntry(const Poco::JSON::Object::Ptr& entry, StreamDefinition& stream) {
    Poco::JSON::Object::Ptr streamMetadata;
    std::map<std::string, Poco::JSON::Object::Ptr> columnMetadata;
    auto metadata = entry->getArray("metadata");
    for (size_t i = 0; !metadata.isNull() && i < metadata->size(); ++i) {
        auto item = metadata->getObject(static_cast<unsigned>(i));
        if (item.isNull()) continue;
        auto breadcrumb = item->getArray("breadcrumb");
        auto values = item->getObject("metadata");
        if (breadcrumb.isNull() || breadcrumb->size() == 0) {
            streamMetadata = values;
        } else if (breadcrumb->size() == 2) {
            columnMetadata[breadcrumb->getElement<std::string>(1)] = values;
        }
    }
    stream.selected = isSelected(streamMetadata, false);
    stream.deselectedColumns.clear();
    for (const auto& [name, values] : columnMetadata) {
        if (!stream.key.contains(name) && !isSelected(values, true)) {
            stream.deselectedColumns.push_back(name);
        }
    }
    for (StreamColumn& column : stream.columns) {
        column.selected =
            stream.key.contains(column.name) ||
            std::find(stream.deselectedColumns.begin(), stream.deselectedColumns.end(),
                      column.name) == stream.deselectedColumns.end();
    }
}

}  // namespace

std::string catalogJson(const std::vector<StreamDefinition>& streams) {
    std::string json = R"({"streams":[)";
    for (size_t i = 0; i < streams.size(); ++i) {
        if (i > 0) json.push_back(',');
        appendStream(json, streams[i]);
    }
    json += "]}";
    return json;
}

namespace {

Poco::JSON::Array::Ptr catalogStreams(const std::string& catalogText, const std::string& source) {
    Poco::JSON::Array::Ptr entries;
    try {
        Poco::JSON::Parser parser;
        auto root = parser.parse(catalogText).extract<Poco::JSON::Object::Ptr>();
        if (root.isNull() || !root->has("streams")) {
            throw CatalogError("catalog '" + source + "' has no \"streams\" list");
        }
        entries = root->getArray("streams");
    } catch (const Poco::Exception& failure) {
        throw CatalogError("catalog '" + source +
                           "' is not a valid catalog: " + failure.displayText());
    }
    if (entries.isNull()) throw CatalogError("catalog '" + source + "': streams is not a list");
    return entries;
}

}  // namespace

void checkCatalogSyntax(const std::string& catalogText, const std::string& source) {
    catalogStreams(catalogText, source);
}

void applyCatalogSelection(const std::string& catalogText, const std::string& source,
                           std::vector<StreamDefinition>& streams) {
    Poco::JSON::Array::Ptr entries = catalogStreams(catalogText, source);
    for (auto& stream : streams) stream.selected = false;
    try {
        for (size_t i = 0; i < entries->size(); ++i) {
            auto entry = entries->getObject(static_cast<unsigned>(i));
            if (entry.isNull()) {
                throw CatalogError("catalog '" + source + "': streams[" + std::to_string(i) +
                                   "] is not an object");
            }
            std::string id = streamId(entry);
            auto match = std::find_if(streams.begin(), streams.end(),
                                      [&](const StreamDefinition& s) { return s.name == id; });
            if (match == streams.end()) {
                throw CatalogError("catalog '" + source + "' names stream '" + id +
                                   "', which is not configured in config['tables']");
            }
            applyEntry(entry, *match);
        }
    } catch (const Poco::Exception& failure) {
        throw CatalogError("catalog '" + source + "' is malformed: " + failure.displayText());
    }
}

}  // namespace tapdiffgen::core

#include "maps/flattening.hpp"

#include <Poco/JSON/Object.h>

#include <set>

#include "maps/stream_maps.hpp"
#include "util/json_value.hpp"

namespace tapdiffgen::core::maps {
namespace {

using Poco::Dynamic::Var;
using Poco::JSON::Object;

constexpr const char* kSeparator = "__";

Var jsonTextSchema() { return nullable(typeSchema("string")); }

struct Flattener {
    int64_t maxDepth;
    std::vector<FlatProperty> plan;
    SchemaPtr properties = newProperties();

    void add(const std::string& name, size_t source, const std::vector<std::string>& path,
             const Var& schemaVar, int64_t level) {
        const Object::Ptr schema = schemaVar.extract<Object::Ptr>();
        if (typeIncludes(*schema, "object") && schema->has("properties") && level < maxDepth) {
            const Object::Ptr children = schema->getObject("properties");
            for (const auto& child : children->getNames()) {
                std::vector<std::string> childPath = path;
                childPath.push_back(child);
                add(name + kSeparator + child, source, childPath, children->get(child), level + 1);
            }
            return;
        }
        // Deliberately beyond the SDK, whose SCHEMA keeps these as objects or arrays (or drops
        // an open schema) while its RECORD holds their JSON text: here both say string.
        const bool open = schema->size() == 0;
        const bool nested = typeIncludes(*schema, "object") || typeIncludes(*schema, "array");
        FlatProperty property;
        property.name = name;
        property.source = source;
        property.path = path;
        property.asJsonText = open || nested;
        plan.push_back(property);
        properties->set(name, property.asJsonText ? jsonTextSchema() : schemaVar);
    }
};

}  // namespace

void flattenStream(OutputStream& stream, int64_t maxDepth) {
    const Object::Ptr properties = stream.schema->getObject("properties");
    Flattener flattener{maxDepth, {}, newProperties()};
    for (size_t i = 0; i < stream.properties.size(); ++i) {
        const std::string& name = stream.properties[i].name;
        flattener.add(name, i, {}, properties->get(name), 0);
    }
    std::set<std::string> seen;
    for (const auto& property : flattener.plan) {
        if (!seen.insert(property.name).second) {
            throw StreamMapError("flattening: stream " +
                                 jsonvalue::pythonRepr(stream.name, SIZE_MAX) +
                                 ": two properties flatten to the same name " +
                                 jsonvalue::pythonRepr(property.name, SIZE_MAX));
        }
    }
    stream.schema = withProperties(*stream.schema, flattener.properties);
    stream.flat = std::move(flattener.plan);
    stream.flattened = true;
}

}  // namespace tapdiffgen::core::maps

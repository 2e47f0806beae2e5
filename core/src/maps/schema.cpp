#include "maps/schema.hpp"

#include <Poco/JSON/Array.h>

#include "util/json_value.hpp"

namespace tapdiffgen::core::maps {
namespace {

using Poco::Dynamic::Var;
using Poco::JSON::Array;
using Poco::JSON::Object;

bool listsNull(const Array& options) {
    for (size_t i = 0; i < options.size(); ++i) {
        const Var option = options.get(static_cast<unsigned>(i));
        if (jsonvalue::kindOf(option) == jsonvalue::Kind::String && option.toString() == "null") {
            return true;
        }
    }
    return false;
}

// A copy of `items` (or a list of the one value) with "null" at the end, when it is not there.
Array::Ptr withNullItem(const Var& items) {
    Array::Ptr out = new Array;
    if (jsonvalue::kindOf(items) == jsonvalue::Kind::Array) {
        const Array::Ptr source = items.extract<Array::Ptr>();
        for (size_t i = 0; i < source->size(); ++i) out->add(source->get(static_cast<unsigned>(i)));
    } else {
        out->add(items);
    }
    if (!listsNull(*out)) out->add("null");
    return out;
}

}  // namespace

SchemaPtr parseSchema(const std::string& json) {
    return jsonvalue::parse(json).extract<Object::Ptr>();
}

std::vector<std::string> propertyNames(const Object& schema) {
    return schema.getObject("properties")->getNames();
}

Var typeSchema(std::string_view type) {
    Object::Ptr schema = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
    Array::Ptr types = new Array;
    types->add(std::string(type));
    schema->set("type", types);
    return schema;
}

Var nullable(const Var& schemaVar) {
    const Object::Ptr schema = schemaVar.extract<Object::Ptr>();
    if (schema->has("anyOf")) {
        const Var anyOf = schema->get("anyOf");
        if (jsonvalue::kindOf(anyOf) != jsonvalue::Kind::Array) return schemaVar;
        Object::Ptr copy = new Object(*schema);
        copy->set("anyOf", withNullItem(anyOf));
        return copy;
    }
    if (!schema->has("type")) return schemaVar;
    Object::Ptr copy = new Object(*schema);
    copy->set("type", withNullItem(schema->get("type")));
    return copy;
}

bool isOpenSchema(const Var& schema) {
    return schema.isEmpty() || schema.extract<Object::Ptr>()->size() == 0;
}

bool typeIncludes(const Object& schema, std::string_view type) {
    if (!schema.has("type")) return false;
    const Var value = schema.get("type");
    if (jsonvalue::kindOf(value) == jsonvalue::Kind::String) return value.toString() == type;
    if (jsonvalue::kindOf(value) != jsonvalue::Kind::Array) return false;
    const Array::Ptr types = value.extract<Array::Ptr>();
    for (size_t i = 0; i < types->size(); ++i) {
        if (types->get(static_cast<unsigned>(i)).toString() == type) return true;
    }
    return false;
}

SchemaPtr withProperties(const Object& schema, const SchemaPtr& properties) {
    SchemaPtr copy = new Object(schema);
    copy->set("properties", properties);
    return copy;
}

SchemaPtr newProperties() { return new Object(Poco::JSON_PRESERVE_KEY_ORDER); }

}  // namespace tapdiffgen::core::maps

// JSON Schema trees as the SDK's typing helpers shape them for mapped streams. A stream's
// schema is parsed once, from the catalog's text, and stays one Poco tree until its SCHEMA
// message is written; these helpers build new nodes and never change one they are given, so
// streams can share what they do not change.
#pragma once

#include <Poco/Dynamic/Var.h>
#include <Poco/JSON/Object.h>

#include <string>
#include <string_view>
#include <vector>

namespace tapdiffgen::core::maps {

using SchemaPtr = Poco::JSON::Object::Ptr;

/// The schema parsed from the catalog's text.
SchemaPtr parseSchema(const std::string& json);

/// The names of the schema's properties, in record order.
std::vector<std::string> propertyNames(const Poco::JSON::Object& schema);

/// {"type": [type]}, as the SDK types what it reads off an expression's text.
Poco::Dynamic::Var typeSchema(std::string_view type);

/// append_type(schema, "null") of the SDK: the schema with "null" among its types (or its
/// anyOf options), as a new node.
Poco::Dynamic::Var nullable(const Poco::Dynamic::Var& schema);

/// No schema at all, or the open schema {} (a JSON column): nothing to take a type from.
bool isOpenSchema(const Poco::Dynamic::Var& schema);

/// Whether the schema's "type" is `type` or lists it.
bool typeIncludes(const Poco::JSON::Object& schema, std::string_view type);

/// A copy of `schema` whose "properties" are `properties` (the other members are shared).
SchemaPtr withProperties(const Poco::JSON::Object& schema, const SchemaPtr& properties);

/// A new, empty properties object that keeps its members in the order they are set.
SchemaPtr newProperties();

}  // namespace tapdiffgen::core::maps

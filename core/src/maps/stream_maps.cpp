#include "maps/stream_maps.hpp"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>

#include <algorithm>

#include "config/json_value.hpp"

namespace tapdiffgen::core::maps {
namespace {

using Poco::Dynamic::Var;
using Poco::JSON::Array;
using Poco::JSON::Object;

constexpr const char* kElse = "__else__";
constexpr const char* kFilter = "__filter__";
constexpr const char* kSource = "__source__";
constexpr const char* kAlias = "__alias__";
constexpr const char* kKeyProperties = "__key_properties__";
constexpr const char* kNullString = "__NULL__";

bool isRemoval(const Var& value) {
    return value.isEmpty() ||
           (jsonvalue::kindOf(value) == jsonvalue::Kind::String && value.toString() == kNullString);
}

std::string quoted(const std::string& text) { return jsonvalue::pythonRepr(text, SIZE_MAX); }

[[noreturn]] void fail(const std::string& stream, const std::string& problem) {
    throw StreamMapError("stream_maps: stream " + quoted(stream) + ": " + problem);
}

[[noreturn]] void failExpression(const std::string& stream, const std::string& property,
                                 const std::string& expression, const std::string& problem) {
    throw StreamMapError("stream_maps: stream " + quoted(stream) + ", property " +
                         quoted(property) + ", expression " + quoted(expression) + ": " + problem);
}

Object::Ptr mapsObject(const StreamMapSettings& settings) {
    if (settings.streamMaps.isEmpty()) return nullptr;
    return settings.streamMaps.extract<Object::Ptr>();
}

Object::Ptr parseSchema(const std::string& json) {
    return jsonvalue::parse(json).extract<Object::Ptr>();
}

Var deepCopy(const Var& value) { return jsonvalue::parse(jsonvalue::write(value)); }

// append_type(schema, "null") of the SDK's typing helpers.
Var withNull(const Var& schemaVar) {
    Var copy = deepCopy(schemaVar);
    Object::Ptr schema = copy.extract<Object::Ptr>();
    if (schema->has("anyOf")) {
        Var anyOf = schema->get("anyOf");
        if (jsonvalue::kindOf(anyOf) == jsonvalue::Kind::Array) {
            Array::Ptr options = anyOf.extract<Array::Ptr>();
            bool present = false;
            for (size_t i = 0; i < options->size(); ++i) {
                const Var option = options->get(static_cast<unsigned>(i));
                present |= jsonvalue::kindOf(option) == jsonvalue::Kind::String &&
                           option.toString() == "null";
            }
            if (!present) options->add("null");
        }
        return copy;
    }
    if (!schema->has("type")) return copy;
    Var type = schema->get("type");
    Array::Ptr types = new Array;
    if (jsonvalue::kindOf(type) == jsonvalue::Kind::Array) {
        types = type.extract<Array::Ptr>();
    } else {
        types->add(type);
    }
    bool present = false;
    for (size_t i = 0; i < types->size(); ++i) {
        present |= types->get(static_cast<unsigned>(i)).toString() == "null";
    }
    if (!present) types->add("null");
    schema->set("type", types);
    return copy;
}

Var typeSchema(const char* type) {
    Object::Ptr schema = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
    Array::Ptr types = new Array;
    types->add(std::string(type));
    schema->set("type", types);
    return schema;
}

bool isEmptySchema(const Var& schema) {
    return schema.isEmpty() || schema.extract<Object::Ptr>()->size() == 0;
}

// _eval_type of the SDK's CustomStreamMap: the type is read off the expression's text.
Var evalType(const std::string& expression, const Var& fallback, const Var& rawSchema) {
    if (expression == "record") return rawSchema;
    auto startsWith = [&](const char* prefix) { return expression.rfind(prefix, 0) == 0; };
    if (startsWith("float(")) return typeSchema("number");
    if (startsWith("int(")) return typeSchema("integer");
    if (startsWith("str(")) return typeSchema("string");
    if (startsWith("bool(")) return typeSchema("boolean");
    if (expression.size() >= 1 && expression.front() == '\'' && expression.back() == '\'') {
        return typeSchema("string");
    }
    return fallback;
}

// The schema dict the SDK shares between the raw and the transformed schema when properties are
// included by default, in record order.
struct PropertyPlan {
    std::string name;
    Var schema;
    OutputProperty output;
};

std::vector<std::string> keyPropertiesFrom(const Var& value, const std::string& stream) {
    std::vector<std::string> keys;
    if (value.isEmpty()) return keys;
    if (jsonvalue::kindOf(value) != jsonvalue::Kind::Array) {
        fail(stream, "__key_properties__ must be a list of property names or null");
    }
    Array::Ptr array = value.extract<Array::Ptr>();
    for (size_t i = 0; i < array->size(); ++i) {
        const Var key = array->get(static_cast<unsigned>(i));
        if (jsonvalue::kindOf(key) != jsonvalue::Kind::String) {
            fail(stream, "__key_properties__ must be a list of property names or null");
        }
        keys.push_back(key.toString());
    }
    return keys;
}

Scope scopeFor(const SourceStream& source, const Value& config, const std::string& property) {
    Scope scope;
    for (const auto& input : source.properties) scope.properties.push_back(input.name);
    scope.config = config;
    for (size_t i = 0; i < source.properties.size(); ++i) {
        if (source.properties[i].name == property) scope.selfSlot = i;
    }
    return scope;
}

std::optional<size_t> inputSlot(const SourceStream& source, const std::string& name) {
    for (size_t i = 0; i < source.properties.size(); ++i) {
        if (source.properties[i].name == name) return i;
    }
    return std::nullopt;
}

std::string schemaText(const std::vector<PropertyPlan>& plans, const Var& required) {
    Object::Ptr schema = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
    Object::Ptr properties = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
    for (const auto& plan : plans) properties->set(plan.name, plan.schema);
    schema->set("type", "object");
    schema->set("properties", properties);
    if (!required.isEmpty()) {
        // Deliberately beyond the SDK, which keeps the raw list: a property removed by the map
        // is no longer required, so every record still satisfies the SCHEMA.
        Array::Ptr kept = new Array;
        const Array::Ptr names = required.extract<Array::Ptr>();
        for (size_t i = 0; i < names->size(); ++i) {
            const std::string name = names->get(static_cast<unsigned>(i)).toString();
            if (properties->has(name)) kept->add(name);
        }
        schema->set("required", kept);
    }
    return jsonvalue::write(schema);
}

OutputStream customStream(const std::string& alias, const Object& definition,
                          const SourceStream& source, const Value& config) {
    OutputStream out;
    out.name = alias;
    out.keyProperties = source.keyProperties;
    const Object::Ptr rawSchema = parseSchema(source.schemaJson);
    bool includeByDefault = true;
    std::vector<std::pair<std::string, Var>> entries;
    for (const auto& name : definition.getNames()) {
        const Var value = definition.get(name);
        if (name == kSource || name == kAlias) continue;
        if (name == kFilter) {
            if (jsonvalue::kindOf(value) != jsonvalue::Kind::String) {
                fail(alias, "__filter__ must be an expression (a string)");
            }
            out.filterText = value.toString();
            try {
                out.filter = Expression::compile(out.filterText, scopeFor(source, config, ""));
            } catch (const ExpressionError& e) {
                failExpression(alias, kFilter, out.filterText, e.what());
            }
            out.usesRecord |= out.filter->usesRecord();
        } else if (name == kKeyProperties) {
            out.keyProperties = keyPropertiesFrom(value, alias);
        } else if (name == kElse) {
            if (!isRemoval(value)) fail(alias, "__else__ may only be null");
            includeByDefault = false;
        } else {
            entries.emplace_back(name, value);
        }
    }

    std::vector<PropertyPlan> plans;
    Object::Ptr rawProperties = rawSchema->getObject("properties");
    auto find = [&](const std::string& name) {
        return std::find_if(plans.begin(), plans.end(),
                            [&](const PropertyPlan& p) { return p.name == name; });
    };
    if (includeByDefault) {
        for (size_t i = 0; i < source.properties.size(); ++i) {
            PropertyPlan plan;
            plan.name = source.properties[i].name;
            plan.schema = rawProperties->get(plan.name);
            plan.output.name = plan.name;
            plan.output.passthrough = i;
            plans.push_back(std::move(plan));
        }
    } else {
        // Deliberately beyond the SDK (which stops): the keys stay, as they are.
        for (const auto& key : out.keyProperties) {
            if (auto slot = inputSlot(source, key)) {
                PropertyPlan plan;
                plan.name = key;
                plan.schema = rawProperties->get(key);
                plan.output.name = key;
                plan.output.passthrough = *slot;
                plans.push_back(std::move(plan));
            }
        }
    }

    for (const auto& [property, value] : entries) {
        if (isRemoval(value)) {
            if (std::find(out.keyProperties.begin(), out.keyProperties.end(), property) !=
                out.keyProperties.end()) {
                fail(alias, "removing key property " + quoted(property) +
                                " needs __key_properties__ (a new list of key properties, or "
                                "null for none)");
            }
            auto existing = find(property);
            if (existing != plans.end()) plans.erase(existing);
            continue;
        }
        if (jsonvalue::kindOf(value) != jsonvalue::Kind::String) {
            fail(alias, "property " + quoted(property) +
                            " must be mapped to an expression (a string) or null");
        }
        const std::string expressionText = value.toString();
        OutputProperty output;
        output.name = property;
        output.expressionText = expressionText;
        try {
            output.expression =
                Expression::compile(expressionText, scopeFor(source, config, property));
        } catch (const ExpressionError& e) {
            failExpression(alias, property, expressionText, e.what());
        }
        output.passthrough = output.expression->plainProperty();
        out.usesRecord |= output.expression->usesRecord();

        auto existing = find(property);
        Var current = existing != plans.end() ? existing->schema : Var();
        if (isEmptySchema(current) && includeByDefault) {
            auto byExpression = find(expressionText);
            if (byExpression != plans.end()) current = byExpression->schema;
        } else if (isEmptySchema(current) && rawProperties->has(expressionText)) {
            current = rawProperties->get(expressionText);
        }
        const Var fallback = isEmptySchema(current) ? typeSchema("string") : current;
        Var schema = withNull(evalType(expressionText, fallback, Var(rawSchema)));
        if (existing != plans.end()) {
            existing->schema = schema;
            existing->output = std::move(output);
        } else {
            PropertyPlan plan;
            plan.name = property;
            plan.schema = schema;
            plan.output = std::move(output);
            plans.push_back(std::move(plan));
        }
    }

    for (const auto& key : out.keyProperties) {
        if (find(key) == plans.end()) {
            fail(alias, "key property " + quoted(key) + " is not among the stream's properties");
        }
    }
    out.schemaJson = schemaText(
        plans, includeByDefault && rawSchema->has("required") ? rawSchema->get("required") : Var());
    for (auto& plan : plans) out.properties.push_back(std::move(plan.output));
    return out;
}

OutputStream sameStream(const SourceStream& source) {
    OutputStream out;
    out.unchanged = true;
    out.name = source.name;
    out.keyProperties = source.keyProperties;
    out.schemaJson = source.schemaJson;
    for (size_t i = 0; i < source.properties.size(); ++i) {
        OutputProperty property;
        property.name = source.properties[i].name;
        property.passthrough = i;
        out.properties.push_back(std::move(property));
    }
    return out;
}

}  // namespace

bool hasStreamMaps(const StreamMapSettings& settings) {
    Object::Ptr maps = mapsObject(settings);
    return maps && maps->size() > 0;
}

Value valueFromJson(const Var& json) {
    return json.isEmpty() ? Value::null() : parseJsonValue(jsonvalue::write(json));
}

void checkStreamMaps(const StreamMapSettings& settings,
                     const std::vector<std::string>& configuredStreams) {
    Object::Ptr maps = mapsObject(settings);
    if (!maps) return;
    for (const auto& name : maps->getNames()) {
        const Var value = maps->get(name);
        if (name == kElse) {
            if (!isRemoval(value)) {
                throw StreamMapError("stream_maps: a top-level __else__ may only be null");
            }
            continue;
        }
        if (name.rfind("__", 0) == 0) {
            throw StreamMapError("stream_maps: unknown option " + quoted(name));
        }
        if (isRemoval(value)) continue;
        if (jsonvalue::kindOf(value) != jsonvalue::Kind::Object) {
            fail(name, "a stream must be mapped to an object of property expressions or null");
        }
        Object::Ptr definition = value.extract<Object::Ptr>();
        for (const char* option : {kSource, kAlias}) {
            if (definition->has(option) &&
                jsonvalue::kindOf(definition->get(option)) != jsonvalue::Kind::String) {
                fail(name, std::string(option) + " must be a stream name");
            }
        }
        if (definition->has(kSource)) {
            const std::string source = definition->get(kSource).toString();
            if (std::find(configuredStreams.begin(), configuredStreams.end(), source) ==
                configuredStreams.end()) {
                fail(name, "__source__ " + quoted(source) + " is not a configured stream");
            }
        }
        for (const auto& property : definition->getNames()) {
            if (property.rfind("__", 0) == 0 && property != kSource && property != kAlias &&
                property != kFilter && property != kKeyProperties && property != kElse) {
                fail(name, "unknown option " + quoted(property));
            }
        }
    }
}

std::vector<std::string> unusedStreamMaps(const StreamMapSettings& settings,
                                          const std::vector<std::string>& configuredStreams) {
    std::vector<std::string> unused;
    Object::Ptr maps = mapsObject(settings);
    if (!maps) return unused;
    for (const auto& key : maps->getNames()) {
        if (key == kElse) continue;
        const Var value = maps->get(key);
        const bool sourced = jsonvalue::kindOf(value) == jsonvalue::Kind::Object &&
                             value.extract<Object::Ptr>()->has(kSource);
        if (!sourced && std::find(configuredStreams.begin(), configuredStreams.end(), key) ==
                            configuredStreams.end()) {
            unused.push_back(key);
        }
    }
    return unused;
}

std::vector<OutputStream> compileStreamMaps(const StreamMapSettings& settings,
                                            const SourceStream& source,
                                            const std::vector<std::string>& configuredStreams) {
    checkStreamMaps(settings, configuredStreams);
    Object::Ptr maps = mapsObject(settings);
    const Value config = valueFromJson(settings.streamMapConfig);
    std::optional<OutputStream> primary;
    bool primaryRemoved = maps && maps->has(kElse);
    std::vector<OutputStream> extra;
    if (maps) {
        for (const auto& key : maps->getNames()) {
            if (key == kElse) continue;
            const Var value = maps->get(key);
            if (isRemoval(value)) {
                if (key == source.name) primaryRemoved = true;
                continue;
            }
            const Object::Ptr definition = value.extract<Object::Ptr>();
            if (definition->has(kSource)) {
                if (definition->get(kSource).toString() == source.name) {
                    extra.push_back(customStream(key, *definition, source, config));
                }
                continue;
            }
            if (key != source.name) continue;
            const std::string alias =
                definition->has(kAlias) ? definition->get(kAlias).toString() : key;
            primary = customStream(alias, *definition, source, config);
            primaryRemoved = false;
        }
    }
    std::vector<OutputStream> outputs;
    if (primary) {
        outputs.push_back(std::move(*primary));
    } else if (!primaryRemoved) {
        outputs.push_back(sameStream(source));
    }
    for (auto& stream : extra) outputs.push_back(std::move(stream));
    // The SDK flattens only with a depth above zero.
    if (settings.flatteningEnabled && settings.flatteningMaxDepth > 0) {
        for (auto& output : outputs) {
            flattenStream(output, settings.flatteningMaxDepth);
            output.unchanged = false;
        }
    }
    return outputs;
}

}  // namespace tapdiffgen::core::maps

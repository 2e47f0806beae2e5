#include "maps/stream_maps.hpp"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>

#include <algorithm>

#include "maps/value_json.hpp"
#include "util/json_value.hpp"

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

Object::Ptr mapsObject(const StreamMapSettings& settings) { return settings.streamMaps; }

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

// The properties of the raw schema a property's schema is looked up in, in record order.
struct SourceProperties {
    std::vector<std::string> names;
    Object::Ptr schemas;

    explicit SourceProperties(const SourceStream& source)
        : names(propertyNames(*source.schema)), schemas(source.schema->getObject("properties")) {}

    std::optional<size_t> slot(const std::string& name) const {
        auto at = std::find(names.begin(), names.end(), name);
        if (at == names.end()) return std::nullopt;
        return static_cast<size_t>(at - names.begin());
    }

    Scope scopeFor(const Value& config, const std::string& property) const {
        Scope scope;
        scope.properties = names;
        scope.config = config;
        scope.selfSlot = slot(property);
        return scope;
    }
};

// One output property while the map is applied, with the schema it will be declared with.
struct PropertyPlan {
    std::string name;
    Var schema;
    OutputProperty output;
};

// The SDK's CustomStreamMap for one output stream: options first, then the properties kept by
// default, then each mapped property in the order the map lists them.
class CustomStream {
public:
    CustomStream(const std::string& alias, const SourceStream& source, const Value& config)
        : source_(source), inputs_(source), config_(config) {
        out_.name = alias;
        out_.keyProperties = source.keyProperties;
    }

    OutputStream build(const Object& definition) {
        std::vector<std::pair<std::string, Var>> entries = readOptions(definition);
        startPlans();
        for (const auto& [property, value] : entries) apply(property, value);
        for (const auto& key : out_.keyProperties) {
            if (find(key) == plans_.end()) {
                fail(out_.name,
                     "key property " + quoted(key) + " is not among the stream's properties");
            }
        }
        out_.schema = schemaOfPlans();
        for (auto& plan : plans_) out_.properties.push_back(std::move(plan.output));
        return std::move(out_);
    }

private:
    const SourceStream& source_;
    SourceProperties inputs_;
    const Value& config_;
    OutputStream out_;
    bool includeByDefault_ = true;
    std::vector<PropertyPlan> plans_;

    std::vector<PropertyPlan>::iterator find(const std::string& name) {
        return std::find_if(plans_.begin(), plans_.end(),
                            [&](const PropertyPlan& p) { return p.name == name; });
    }

    Expression compile(const std::string& property, const std::string& text,
                       const std::string& self) const {
        try {
            return Expression::compile(text, inputs_.scopeFor(config_, self));
        } catch (const ExpressionError& e) {
            failExpression(out_.name, property, "", text, e.what());
        }
    }

    // The double-underscore options; what is left are the property entries, in map order.
    std::vector<std::pair<std::string, Var>> readOptions(const Object& definition) {
        std::vector<std::pair<std::string, Var>> entries;
        for (const auto& name : definition.getNames()) {
            const Var value = definition.get(name);
            if (name == kSource || name == kAlias) continue;
            if (name == kFilter) {
                if (jsonvalue::kindOf(value) != jsonvalue::Kind::String) {
                    fail(out_.name, "__filter__ must be an expression (a string)");
                }
                out_.filterText = value.toString();
                out_.filter = compile(kFilter, out_.filterText, "");
                out_.usesRecord |= out_.filter->usesRecord();
            } else if (name == kKeyProperties) {
                out_.keyProperties = keyPropertiesFrom(value, out_.name);
            } else if (name == kElse) {
                if (!isRemoval(value)) fail(out_.name, "__else__ may only be null");
                includeByDefault_ = false;
            } else {
                entries.emplace_back(name, value);
            }
        }
        return entries;
    }

    void addPassthrough(const std::string& name, size_t slot) {
        PropertyPlan plan;
        plan.name = name;
        plan.schema = inputs_.schemas->get(name);
        plan.output.name = name;
        plan.output.passthrough = slot;
        plans_.push_back(std::move(plan));
    }

    void startPlans() {
        if (includeByDefault_) {
            for (size_t i = 0; i < inputs_.names.size(); ++i) addPassthrough(inputs_.names[i], i);
            return;
        }
        // Deliberately beyond the SDK (which stops): the keys stay, as they are.
        for (const auto& key : out_.keyProperties) {
            if (auto slot = inputs_.slot(key)) addPassthrough(key, *slot);
        }
    }

    void remove(const std::string& property) {
        if (std::find(out_.keyProperties.begin(), out_.keyProperties.end(), property) !=
            out_.keyProperties.end()) {
            fail(out_.name, "removing key property " + quoted(property) +
                                " needs __key_properties__ (a new list of key properties, or "
                                "null for none)");
        }
        auto existing = find(property);
        if (existing != plans_.end()) plans_.erase(existing);
    }

    // The schema the SDK derives: the property's own, else the one of a property named like the
    // expression, else string; unless the expression's text says its type.
    Var schemaFor(const std::string& property, const std::string& expressionText) {
        auto existing = find(property);
        Var current = existing != plans_.end() ? existing->schema : Var();
        if (isOpenSchema(current) && includeByDefault_) {
            auto byExpression = find(expressionText);
            if (byExpression != plans_.end()) current = byExpression->schema;
        } else if (isOpenSchema(current) && inputs_.schemas->has(expressionText)) {
            current = inputs_.schemas->get(expressionText);
        }
        const Var fallback = isOpenSchema(current) ? typeSchema("string") : current;
        return nullable(evalType(expressionText, fallback, Var(source_.schema)));
    }

    void apply(const std::string& property, const Var& value) {
        if (isRemoval(value)) {
            remove(property);
            return;
        }
        if (jsonvalue::kindOf(value) != jsonvalue::Kind::String) {
            fail(out_.name, "property " + quoted(property) +
                                " must be mapped to an expression (a string) or null");
        }
        OutputProperty output;
        output.name = property;
        output.expressionText = value.toString();
        output.expression = compile(property, output.expressionText, property);
        output.passthrough = output.expression->plainProperty();
        out_.usesRecord |= output.expression->usesRecord();
        Var schema = schemaFor(property, output.expressionText);
        auto existing = find(property);
        if (existing != plans_.end()) {
            existing->schema = schema;
            existing->output = std::move(output);
        } else {
            plans_.push_back({property, schema, std::move(output)});
        }
    }

    SchemaPtr schemaOfPlans() const {
        SchemaPtr schema = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
        SchemaPtr properties = newProperties();
        for (const auto& plan : plans_) properties->set(plan.name, plan.schema);
        schema->set("type", "object");
        schema->set("properties", properties);
        if (includeByDefault_ && source_.schema->has("required")) {
            // Deliberately beyond the SDK, which keeps the raw list: a property removed by the
            // map is no longer required, so every record still satisfies the SCHEMA.
            Array::Ptr kept = new Array;
            const Array::Ptr names = source_.schema->getArray("required");
            for (size_t i = 0; i < names->size(); ++i) {
                const std::string name = names->get(static_cast<unsigned>(i)).toString();
                if (properties->has(name)) kept->add(name);
            }
            schema->set("required", kept);
        }
        return schema;
    }
};

OutputStream sameStream(const SourceStream& source) {
    OutputStream out;
    out.unchanged = true;
    out.name = source.name;
    out.origin = "stream " + quoted(source.name);
    out.keyProperties = source.keyProperties;
    out.schema = source.schema;
    const std::vector<std::string> names = propertyNames(*source.schema);
    for (size_t i = 0; i < names.size(); ++i) {
        OutputProperty property;
        property.name = names[i];
        property.passthrough = i;
        out.properties.push_back(std::move(property));
    }
    return out;
}

void checkStreamDefinition(const std::string& name, const Var& value,
                           const std::vector<std::string>& configuredStreams) {
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

}  // namespace

void failExpression(const std::string& stream, const std::string& property,
                    const std::string& record, const std::string& expression,
                    const std::string& problem) {
    // A very long expression (a generated one) is named by its start: the line stays readable.
    constexpr size_t kShownLength = 200;
    throw StreamMapError("stream_maps: stream " + quoted(stream) + ", property " +
                         quoted(property) + (record.empty() ? "" : ", record " + record) +
                         ", expression " + jsonvalue::pythonRepr(expression, kShownLength) + ": " +
                         problem);
}

std::string OutputStream::schemaJson() const { return jsonvalue::write(schema); }

bool hasStreamMaps(const StreamMapSettings& settings) {
    Object::Ptr maps = mapsObject(settings);
    return maps && maps->size() > 0;
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
        if (!isRemoval(value)) checkStreamDefinition(name, value, configuredStreams);
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
                                            const SourceStream& source) {
    Object::Ptr maps = mapsObject(settings);
    const Value config =
        valueFromJson(settings.streamMapConfig ? JsonValue(settings.streamMapConfig) : JsonValue());
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
                    extra.push_back(CustomStream(key, source, config).build(*definition));
                    extra.back().origin =
                        quoted(key) + " through its __source__ " + quoted(source.name);
                }
                continue;
            }
            if (key != source.name) continue;
            const std::string alias =
                definition->has(kAlias) ? definition->get(kAlias).toString() : key;
            primary = CustomStream(alias, source, config).build(*definition);
            primary->origin =
                "stream " + quoted(key) + (alias == key ? "" : " through its __alias__");
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

#include "maps/flattening.hpp"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>

#include <cmath>
#include <set>

#include "config/json_value.hpp"
#include "maps/stream_maps.hpp"

namespace tapdiffgen::core::maps {
namespace {

using Poco::Dynamic::Var;
using Poco::JSON::Array;
using Poco::JSON::Object;

constexpr const char* kSeparator = "__";

bool typeIncludes(const Object& schema, const std::string& type) {
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

Var jsonTextSchema() { return jsonvalue::parse(R"({"type":["string","null"]})"); }

struct Flattener {
    int64_t maxDepth;
    std::vector<FlatProperty> plan;
    Object::Ptr properties = new Object(Poco::JSON_PRESERVE_KEY_ORDER);

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

void appendPythonString(std::string& out, const std::string& text) {
    static const char* const kHex = "0123456789abcdef";
    auto escape = [&](uint32_t unit) {
        out += "\\u";
        for (int shift = 12; shift >= 0; shift -= 4) out.push_back(kHex[(unit >> shift) & 0xF]);
    };
    out.push_back('"');
    for (size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x80) {
            switch (c) {
                case '"':
                    out += "\\\"";
                    break;
                case '\\':
                    out += "\\\\";
                    break;
                case '\n':
                    out += "\\n";
                    break;
                case '\r':
                    out += "\\r";
                    break;
                case '\t':
                    out += "\\t";
                    break;
                case '\b':
                    out += "\\b";
                    break;
                case '\f':
                    out += "\\f";
                    break;
                default:
                    if (c < 0x20) {
                        escape(c);
                    } else {
                        out.push_back(static_cast<char>(c));
                    }
            }
            ++i;
            continue;
        }
        size_t length = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
        uint32_t cp = c & (length == 4 ? 0x07 : length == 3 ? 0x0F : 0x1F);
        for (size_t k = 1; k < length && i + k < text.size(); ++k) {
            cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
        }
        if (cp >= 0x10000) {
            cp -= 0x10000;
            escape(0xD800 + (cp >> 10));
            escape(0xDC00 + (cp & 0x3FF));
        } else {
            escape(cp);
        }
        i += length;
    }
    out.push_back('"');
}

}  // namespace

void appendPythonJson(std::string& out, const Value& value) {
    switch (value.type) {
        case ValueType::Null:
            out += "null";
            return;
        case ValueType::Bool:
            out += value.boolean ? "true" : "false";
            return;
        case ValueType::Int:
            out += std::to_string(value.integer);
            return;
        case ValueType::Float:
        case ValueType::Decimal: {
            const double d = value.asDouble();
            if (std::isnan(d)) {
                out += "NaN";
            } else if (std::isinf(d)) {
                out += d > 0 ? "Infinity" : "-Infinity";
            } else {
                out += jsonvalue::formatDouble(d);
            }
            return;
        }
        case ValueType::String:
            appendPythonString(out, value.text);
            return;
        case ValueType::List:
        case ValueType::Tuple:
            out.push_back('[');
            for (size_t i = 0; i < value.items->size(); ++i) {
                if (i > 0) out += ", ";
                appendPythonJson(out, (*value.items)[i]);
            }
            out.push_back(']');
            return;
        case ValueType::Dict:
            out.push_back('{');
            for (size_t i = 0; i < value.entries->size(); ++i) {
                if (i > 0) out += ", ";
                const Value& key = (*value.entries)[i].first;
                if (key.type == ValueType::String) {
                    appendPythonString(out, key.text);
                } else {
                    std::string keyText;
                    appendPythonJson(keyText, key);
                    appendPythonString(out, keyText);
                }
                out += ": ";
                appendPythonJson(out, (*value.entries)[i].second);
            }
            out.push_back('}');
            return;
        default:
            appendPythonString(out, str(value));
            return;
    }
}

void flattenStream(OutputStream& stream, int64_t maxDepth) {
    Object::Ptr schema = jsonvalue::parse(stream.schemaJson).extract<Object::Ptr>();
    const Object::Ptr properties = schema->getObject("properties");
    Flattener flattener{maxDepth, {}, new Object(Poco::JSON_PRESERVE_KEY_ORDER)};
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
    schema->set("properties", flattener.properties);
    stream.schemaJson = jsonvalue::write(schema);
    stream.flat = std::move(flattener.plan);
    stream.flattened = true;
}

}  // namespace tapdiffgen::core::maps

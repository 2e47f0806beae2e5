#include "plugin/declared_settings.hpp"

#include <algorithm>
#include <map>

#include "plugin/plugin_loader.hpp"
#include "util/joined.hpp"
#include "util/json_value.hpp"

namespace tapdiffgen::core {
namespace {

bool isSettingName(const std::string& name) {
    return !name.empty() && name[0] >= 'a' && name[0] <= 'z' &&
           name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") == std::string::npos;
}

const char* typeName(TdgSettingType type) {
    switch (type) {
        case TDG_SETTING_STRING:
            return "string";
        case TDG_SETTING_INTEGER:
            return "integer";
        case TDG_SETTING_NUMBER:
            return "number";
        case TDG_SETTING_BOOLEAN:
            return "boolean";
        default:
            return nullptr;
    }
}

[[noreturn]] void refuse(const std::string& where, const std::string& problem) {
    throw PluginLoadError("the plugin's " + where + " " + problem);
}

void readDefault(const TdgSettingDeclaration& declaration, const std::string& where,
                 SettingSpec& spec) {
    if (declaration.default_json == nullptr) return;
    Poco::Dynamic::Var value;
    try {
        value = jsonvalue::parse(declaration.default_json);
    } catch (const jsonvalue::JsonSyntaxError&) {
        refuse(where, "has a default that is not JSON text");
    }
    if (!jsonvalue::matchesType(value, spec.type)) {
        refuse(where, "has a default that is not of type '" + spec.type + "'");
    }
    spec.defaultJson = declaration.default_json;
}

SettingSpec specOf(const TdgSettingDeclaration& declaration, std::size_t index,
                   const std::string& dialect) {
    std::string where = "setting declaration " + std::to_string(index);
    if (declaration.struct_size < TDG_SETTING_DECLARATION_SIZE_4) {
        refuse(where, "is " + std::to_string(declaration.struct_size) + " bytes, at least " +
                          std::to_string(TDG_SETTING_DECLARATION_SIZE_4) + " expected");
    }
    const std::string name = declaration.name ? declaration.name : "";
    if (!isSettingName(name)) {
        refuse(where, "has no valid name (a lower-case letter, then letters, digits and '_')");
    }
    where = "setting '" + name + "'";
    if (findSettingSpec(name) != nullptr) {
        refuse(where, "is a setting of the tap itself; a plugin cannot declare it");
    }
    const char* type = typeName(declaration.type);
    if (type == nullptr) refuse(where, "has an unknown type " + std::to_string(declaration.type));
    SettingSpec spec;
    spec.name = name;
    spec.type = type;
    spec.description = declaration.description ? declaration.description : "";
    spec.secret = declaration.secret != 0;
    spec.driverOption = true;
    spec.dialects = {dialect};
    if (declaration.has_minimum) spec.minimum = declaration.minimum;
    if (declaration.has_maximum) spec.maximum = declaration.maximum;
    for (auto value = declaration.allowed; value != nullptr && *value != nullptr; ++value) {
        spec.allowed.emplace_back(*value);
    }
    if (!spec.allowed.empty() && spec.type != "string") {
        refuse(where, "lists allowed values but is not a string setting");
    }
    readDefault(declaration, where, spec);
    return spec;
}

// "TLS mode. one: disable, require; other: disable, allow."
void describeAllowedPerDialect(SettingSpec& merged, const std::vector<SettingSpec>& each) {
    const bool allSame = std::all_of(each.begin(), each.end(), [&](const SettingSpec& spec) {
        return spec.allowed == each.front().allowed;
    });
    if (allSame) return;
    std::string perDialect;
    for (const auto& spec : each) {
        if (spec.allowed.empty()) continue;
        perDialect += (perDialect.empty() ? "" : "; ") + spec.dialects.front() + ": " +
                      joined(spec.allowed, ", ");
    }
    merged.description += " " + perDialect + ".";
}

}  // namespace

PluginSettings readDeclaredSettings(const TdgPluginInfo& info, const std::string& dialect) {
    PluginSettings result;
    if (info.struct_size < TDG_PLUGIN_INFO_SIZE_4) return result;
    result.declared = true;
    for (auto entry = info.settings; entry != nullptr && *entry != nullptr; ++entry) {
        SettingSpec spec = specOf(**entry, result.specs.size(), dialect);
        for (const auto& earlier : result.specs) {
            if (earlier.name == spec.name) {
                refuse("setting '" + spec.name + "'", "is declared twice");
            }
        }
        result.specs.push_back(std::move(spec));
    }
    return result;
}

std::vector<SettingSpec> mergedDeclaredSettings(const std::vector<PluginSettings>& plugins) {
    std::vector<std::string> order;
    std::map<std::string, std::vector<SettingSpec>> byName;
    for (const auto& plugin : plugins) {
        for (const auto& spec : plugin.specs) {
            if (byName.find(spec.name) == byName.end()) order.push_back(spec.name);
            byName[spec.name].push_back(spec);
        }
    }
    std::vector<SettingSpec> merged;
    for (const auto& name : order) {
        const auto& each = byName[name];
        SettingSpec spec = each.front();
        for (auto other = each.begin() + 1; other != each.end(); ++other) {
            spec.dialects.push_back(other->dialects.front());
            spec.secret = spec.secret || other->secret;
            for (const auto& value : other->allowed) {
                if (std::find(spec.allowed.begin(), spec.allowed.end(), value) ==
                    spec.allowed.end()) {
                    spec.allowed.push_back(value);
                }
            }
        }
        describeAllowedPerDialect(spec, each);
        merged.push_back(std::move(spec));
    }
    return merged;
}

}  // namespace tapdiffgen::core

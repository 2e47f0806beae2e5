#include "config/tap_config.hpp"

#include <Poco/JSON/Array.h>

#include <algorithm>
#include <limits>
#include <set>
#include <stdexcept>

#include "config/config_sources.hpp"
#include "config/json_value.hpp"
#include "config/settings.hpp"
#include "config/suggest.hpp"

namespace tapdiffgen::core {

namespace {

using jsonvalue::Kind;
using jsonvalue::kindOf;
using Poco::Dynamic::Var;
using Poco::JSON::Array;
using Poco::JSON::Object;

constexpr const char* kRoot = "config";

// Paths look like jsonschema's: config['tables'][0]['pk_column'].
std::string keyPath(const std::string& parent, const std::string& key) {
    return parent + "[" + jsonvalue::pythonRepr(key) + "]";
}

std::string indexPath(const std::string& parent, std::size_t index) {
    return parent + "[" + std::to_string(index) + "]";
}

[[noreturn]] void fail(const std::string& problem, const std::string& path) {
    throw ConfigError(problem + " in " + path);
}

std::string shown(const Var& value, const SettingSpec& spec) {
    return spec.secret ? "'***'" : jsonvalue::pythonRepr(value);
}

std::string listRepr(const std::vector<std::string>& values) {
    std::string out = "[";
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (i > 0) out += ", ";
        out += jsonvalue::pythonRepr(values[i]);
    }
    return out + "]";
}

std::vector<std::string> specNames(const std::vector<SettingSpec>& specs) {
    std::vector<std::string> names;
    for (const auto& spec : specs) names.push_back(spec.name);
    return names;
}

const SettingSpec* findSpec(const std::vector<SettingSpec>& specs, const std::string& name) {
    for (const auto& spec : specs) {
        if (spec.name == name) return &spec;
    }
    return nullptr;
}

bool isScalar(const Var& value) {
    const Kind kind = kindOf(value);
    return kind == Kind::String || kind == Kind::Integer || kind == Kind::Number ||
           kind == Kind::Boolean;
}

bool isValidTableName(const std::string& name) {
    if (name.find('\0') != std::string::npos) return false;
    const auto dot = name.find('.');
    if (dot == std::string::npos) return !name.empty();
    return dot > 0 && dot + 1 < name.size() && name.find('.', dot + 1) == std::string::npos;
}

// An integer outside int64 is reported against the limit it broke, as jsonschema would with
// an explicit minimum/maximum.
void checkLimits(const SettingSpec& spec, const Var& value, const std::string& path) {
    const auto exact = jsonvalue::toInt64(value);
    const double approximate = value.convert<double>();
    const auto below = [&](std::int64_t limit) {
        return exact ? *exact < limit : approximate < static_cast<double>(limit);
    };
    const auto above = [&](std::int64_t limit) {
        return exact ? *exact > limit : approximate > static_cast<double>(limit);
    };
    if (spec.minimum && below(*spec.minimum)) {
        fail(shown(value, spec) + " is less than the minimum of " + std::to_string(*spec.minimum),
             path);
    }
    if (spec.maximum && above(*spec.maximum)) {
        fail(
            shown(value, spec) + " is greater than the maximum of " + std::to_string(*spec.maximum),
            path);
    }
    if (spec.type == "integer" && !exact) {
        const bool negative = approximate < 0;
        fail(shown(value, spec) +
                 (negative ? " is less than the minimum of " : " is greater than the maximum of ") +
                 std::to_string(negative ? std::numeric_limits<std::int64_t>::min()
                                         : std::numeric_limits<std::int64_t>::max()),
             path);
    }
}

void checkString(const SettingSpec& spec, const std::string& text, const std::string& path) {
    if (text.find('\0') != std::string::npos) {
        fail(shown(text, spec) + " contains a NUL character", path);
    }
    if (!spec.allowed.empty() &&
        std::find(spec.allowed.begin(), spec.allowed.end(), text) == spec.allowed.end()) {
        fail(shown(text, spec) + " is not one of " + listRepr(spec.allowed), path);
    }
}

void checkValue(const SettingSpec& spec, const Var& value, const std::string& path) {
    if (!jsonvalue::matchesType(value, spec.type)) {
        fail(shown(value, spec) + " is not of type '" + spec.type + "'", path);
    }
    if (spec.type == "string") checkString(spec, value.convert<std::string>(), path);
    if (spec.type == "integer" || spec.type == "number") checkLimits(spec, value, path);
}

void checkRequired(const Object& object, const std::vector<SettingSpec>& specs,
                   const std::string& path) {
    for (const auto& spec : specs) {
        if (spec.required && !object.has(spec.name)) {
            const std::string problem = "'" + spec.name + "' is a required property";
            if (path == kRoot) throw ConfigError(problem);
            fail(problem, path);
        }
    }
}

// A null counts as not given, except for a required setting, which must have its type.
bool isGiven(const Object& object, const SettingSpec& spec) {
    return object.has(spec.name) && (spec.required || !object.get(spec.name).isEmpty());
}

void checkValues(const Object& object, const std::vector<SettingSpec>& specs,
                 const std::string& path) {
    checkRequired(object, specs, path);
    for (const auto& spec : specs) {
        if (isGiven(object, spec))
            checkValue(spec, object.get(spec.name), keyPath(path, spec.name));
    }
}

void warnUnknownKeys(const Object& object, const std::vector<SettingSpec>& specs,
                     const std::string& what, const std::string& path,
                     std::vector<std::string>& warnings) {
    const auto known = specNames(specs);
    for (const auto& name : object.getNames()) {
        if (findSpec(specs, name)) continue;
        std::string warning = "unknown " + what + " " + jsonvalue::pythonRepr(name) + " in " + path;
        if (const auto suggestion = closestName(name, known)) {
            warning += " (did you mean " + jsonvalue::pythonRepr(*suggestion) + "?)";
        }
        warnings.push_back(warning);
    }
}

Var effectiveValue(const Object& object, const SettingSpec& spec) {
    if (isGiven(object, spec)) return object.get(spec.name);
    if (spec.defaultJson) return jsonvalue::parse(*spec.defaultJson);
    return Var();
}

Var effectiveValue(const Object& object, const std::vector<SettingSpec>& specs,
                   const std::string& name) {
    const SettingSpec* spec = findSpec(specs, name);
    if (!spec) throw std::logic_error("setting '" + name + "' is not in the catalogue");
    return effectiveValue(object, *spec);
}

std::string textSetting(const Object& object, const std::string& name) {
    return effectiveValue(object, settingSpecs(), name).convert<std::string>();
}

std::int64_t integerSetting(const Object& object, const std::string& name) {
    return *jsonvalue::toInt64(effectiveValue(object, settingSpecs(), name));
}

void checkSqlDialect(const std::string& dialect, const std::string& path) {
    if (dialect.empty()) fail("'' should be non-empty", path);
    if (dialect.find('/') != std::string::npos && dialect[0] != '/') {
        fail(jsonvalue::pythonRepr(dialect) + " is neither a dialect name nor an absolute path",
             path);
    }
}

void checkTableName(const std::string& name, const std::string& path) {
    if (!isValidTableName(name)) {
        fail(jsonvalue::pythonRepr(name) + " is not a valid table name", path);
    }
}

TableSetting readTableEntry(const Var& value, const std::string& path,
                            std::vector<std::string>& warnings) {
    if (kindOf(value) != Kind::Object) {
        fail(jsonvalue::pythonRepr(value) + " is not of type 'object'", path);
    }
    const Object& entry = *value.extract<Object::Ptr>();
    const auto& specs = tableSettingSpecs();
    checkValues(entry, specs, path);
    TableSetting table;
    table.tableName = effectiveValue(entry, specs, "table_name").convert<std::string>();
    table.pkColumn = effectiveValue(entry, specs, "pk_column").convert<std::string>();
    table.mode = effectiveValue(entry, specs, "mode").convert<std::string>();
    table.startFrom = effectiveValue(entry, specs, "start_from").convert<std::string>();
    checkTableName(table.tableName, keyPath(path, "table_name"));
    if (table.pkColumn.empty()) fail("'' should be non-empty", keyPath(path, "pk_column"));
    warnUnknownKeys(entry, specs, "key", path, warnings);
    return table;
}

std::vector<TableSetting> readTables(const Array& array, const std::string& path,
                                     std::vector<std::string>& warnings) {
    if (array.size() == 0) fail("[] should be non-empty", path);
    std::vector<TableSetting> tables;
    std::set<std::string> seen;
    for (std::size_t i = 0; i < array.size(); ++i) {
        TableSetting table =
            readTableEntry(array.get(static_cast<unsigned>(i)), indexPath(path, i), warnings);
        if (!seen.insert(table.tableName).second) {
            fail("table " + jsonvalue::pythonRepr(table.tableName) + " is configured twice", path);
        }
        tables.push_back(std::move(table));
    }
    return tables;
}

std::vector<std::pair<std::string, std::string>> connectionOptionsOf(const Object& config) {
    std::vector<std::pair<std::string, std::string>> options;
    for (const auto& spec : settingSpecs()) {
        if (!spec.driverOption) continue;
        const Var value = effectiveValue(config, spec);
        if (!value.isEmpty()) options.emplace_back(spec.name, jsonvalue::scalarText(value));
    }
    // A third-party dialect may define settings of its own.
    for (const auto& name : config.getNames()) {
        const Var value = config.get(name);
        if (!findSettingSpec(name) && isScalar(value)) {
            options.emplace_back(name, jsonvalue::scalarText(value));
        }
    }
    return options;
}

void readSettings(const Object& config, TapConfig& result) {
    result.sqlDialect = textSetting(config, "sql_dialect");
    result.diffgenTable = textSetting(config, "diffgen_table");
    result.pageSize = integerSetting(config, "page_size");
    result.addSdcDeletedAt =
        effectiveValue(config, settingSpecs(), "add_sdc_deleted_at").convert<bool>();
    result.logLevel = textSetting(config, "log_level");
    result.maxRunSeconds = integerSetting(config, "max_run_seconds");
    result.onBadEvent = textSetting(config, "on_bad_event");
    result.horizonSettleSeconds =
        effectiveValue(config, settingSpecs(), "horizon_settle_seconds").convert<double>();
    result.horizonWaitSeconds = integerSetting(config, "horizon_wait_seconds");
    result.connectTimeout = integerSetting(config, "connect_timeout");
    result.reconnectAttempts = integerSetting(config, "reconnect_attempts");
    result.reconnectMaxWaitSeconds = integerSetting(config, "reconnect_max_wait_seconds");
    result.follow = effectiveValue(config, settingSpecs(), "follow").convert<bool>();
    result.idleExitSeconds = integerSetting(config, "idle_exit_seconds");
    result.pollIntervalSeconds =
        effectiveValue(config, settingSpecs(), "poll_interval_seconds").convert<double>();
    result.stateIntervalSeconds =
        effectiveValue(config, settingSpecs(), "state_interval_seconds").convert<double>();
}

// A poll interval of 0 would read the log in a busy loop.
void checkPositive(const Object& config, const std::string& name) {
    const Var value = effectiveValue(config, settingSpecs(), name);
    if (value.convert<double>() <= 0) {
        fail(jsonvalue::pythonRepr(value) + " is less than or equal to the minimum of 0",
             keyPath(kRoot, name));
    }
}

void mergeInto(Object& target, const Object& source) {
    for (const auto& name : source.getNames()) target.set(name, source.get(name));
}

}  // namespace

const std::string* TapConfig::connectionOption(std::string_view name) const {
    for (const auto& [key, value] : connectionOptions) {
        if (key == name) return &value;
    }
    return nullptr;
}

TapConfig parseConfigObject(const Object::Ptr& config) {
    if (!config) throw ConfigError("config must contain a JSON object");
    checkValues(*config, settingSpecs(), kRoot);
    TapConfig result;
    checkSqlDialect(textSetting(*config, "sql_dialect"), keyPath(kRoot, "sql_dialect"));
    checkTableName(textSetting(*config, "diffgen_table"), keyPath(kRoot, "diffgen_table"));
    result.tables =
        readTables(*config->getArray("tables"), keyPath(kRoot, "tables"), result.warnings);
    warnUnknownKeys(*config, settingSpecs(), "setting", kRoot, result.warnings);
    checkPositive(*config, "poll_interval_seconds");
    readSettings(*config, result);
    result.connectionOptions = connectionOptionsOf(*config);
    return result;
}

TapConfig parseConfigObject(const std::string& jsonText) {
    Var parsed;
    try {
        parsed = jsonvalue::parse(jsonText);
    } catch (const jsonvalue::JsonSyntaxError& e) {
        throw ConfigError(std::string("config is not valid JSON: ") + e.what());
    }
    if (kindOf(parsed) != Kind::Object) throw ConfigError("config must contain a JSON object");
    return parseConfigObject(parsed.extract<Object::Ptr>());
}

TapConfig loadConfig(const std::vector<std::string>& configArgs, const std::string& workingDir) {
    Object::Ptr merged = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
    bool useEnvironment = false;
    for (const auto& arg : configArgs) {
        if (arg == "ENV") {
            useEnvironment = true;
        } else {
            mergeInto(*merged, *readConfigFile(arg));
        }
    }
    std::vector<std::string> warnings;
    // The environment wins over every file, wherever ENV stands among the flags.
    if (useEnvironment) mergeInto(*merged, *readEnvironmentConfig(workingDir, warnings));
    TapConfig result = parseConfigObject(merged);
    result.warnings.insert(result.warnings.begin(), warnings.begin(), warnings.end());
    return result;
}

}  // namespace tapdiffgen::core

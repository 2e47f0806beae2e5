#include "config/tap_config.hpp"

#include <Poco/JSON/Array.h>
#include <arpa/inet.h>

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>

#include "config/config_sources.hpp"
#include "config/settings.hpp"
#include "config/suggest.hpp"
#include "util/json_value.hpp"

namespace tapdiffgen::core {

namespace {

using jsonvalue::Kind;
using jsonvalue::kindOf;
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

std::string shown(const JsonValue& value, const SettingSpec& spec) {
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

bool isScalar(const JsonValue& value) {
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

// "sales.orders" -> "orders": what the shipped triggers write (TG_TABLE_NAME, or the literal).
std::string unqualifiedName(const std::string& validTableName) {
    const auto dot = validTableName.find('.');
    return dot == std::string::npos ? validTableName : validTableName.substr(dot + 1);
}

// An integer outside int64 is reported against the limit it broke, as jsonschema would with
// an explicit minimum/maximum.
void checkLimits(const SettingSpec& spec, const JsonValue& value, const std::string& path) {
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

void checkStringList(const SettingSpec& spec, const Array& list, const std::string& path) {
    if (list.size() == 0) fail("[] should be non-empty", path);
    std::set<std::string> seen;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const JsonValue item = list.get(static_cast<unsigned>(i));
        if (!jsonvalue::matchesType(item, "string")) {
            fail(shown(item, spec) + " is not of type 'string'", indexPath(path, i));
        }
        checkString(spec, item.convert<std::string>(), indexPath(path, i));
        if (!seen.insert(item.convert<std::string>()).second) {
            fail(shown(item, spec) + " is listed twice", path);
        }
    }
}

void checkValue(const SettingSpec& spec, const JsonValue& value, const std::string& path) {
    if (spec.orStringList && kindOf(value) == Kind::Array) {
        checkStringList(spec, *value.extract<Array::Ptr>(), path);
        return;
    }
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

JsonValue effectiveValue(const Object& object, const SettingSpec& spec) {
    if (isGiven(object, spec)) return object.get(spec.name);
    if (spec.defaultJson) return jsonvalue::parse(*spec.defaultJson);
    return JsonValue();
}

JsonValue effectiveValue(const Object& object, const std::vector<SettingSpec>& specs,
                         const std::string& name) {
    const SettingSpec* spec = findSpec(specs, name);
    if (!spec) throw std::logic_error("setting '" + name + "' is not in the catalogue");
    return effectiveValue(object, *spec);
}

std::size_t allowedIndex(const Object& object, const std::vector<SettingSpec>& specs,
                         const std::string& name) {
    const auto& allowed = findSpec(specs, name)->allowed;
    const auto text = effectiveValue(object, specs, name).convert<std::string>();
    return static_cast<std::size_t>(std::find(allowed.begin(), allowed.end(), text) -
                                    allowed.begin());
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

// A value checked by checkValue for a spec with orStringList.
std::vector<std::string> stringOrList(const JsonValue& value) {
    if (kindOf(value) != Kind::Array) return {value.convert<std::string>()};
    const Array& list = *value.extract<Array::Ptr>();
    std::vector<std::string> out;
    for (std::size_t i = 0; i < list.size(); ++i) {
        out.push_back(list.get(static_cast<unsigned>(i)).convert<std::string>());
    }
    return out;
}

TableSetting readTableEntry(const JsonValue& value, const std::string& path,
                            std::vector<std::string>& warnings) {
    if (kindOf(value) != Kind::Object) {
        fail(jsonvalue::pythonRepr(value) + " is not of type 'object'", path);
    }
    const Object& entry = *value.extract<Object::Ptr>();
    const auto& specs = tableSettingSpecs();
    checkValues(entry, specs, path);
    TableSetting table;
    table.tableName = effectiveValue(entry, specs, "table_name").convert<std::string>();
    table.table = TableRef::parse(table.tableName);
    table.pkColumns = stringOrList(effectiveValue(entry, specs, "pk_column"));
    // checkValues admitted only the catalogue's enum values, listed in the enums' order.
    table.mode = static_cast<StreamMode>(allowedIndex(entry, specs, "mode"));
    table.startFrom = static_cast<StartFrom>(allowedIndex(entry, specs, "start_from"));
    checkTableName(table.tableName, keyPath(path, "table_name"));
    for (const auto& column : table.pkColumns) {
        if (column.empty()) fail("'' should be non-empty", keyPath(path, "pk_column"));
    }
    const JsonValue journalName = effectiveValue(entry, specs, "journal_name");
    table.journalNameGiven = !journalName.isEmpty();
    table.journalName = table.journalNameGiven ? journalName.convert<std::string>()
                                               : unqualifiedName(table.tableName);
    if (table.journalName.empty()) fail("'' should be non-empty", keyPath(path, "journal_name"));
    warnUnknownKeys(entry, specs, "key", path, warnings);
    return table;
}

std::vector<TableSetting> readTables(const Array& array, const std::string& path,
                                     std::vector<std::string>& warnings) {
    if (array.size() == 0) fail("[] should be non-empty", path);
    std::vector<TableSetting> tables;
    std::set<std::string> seen;
    std::map<std::string, std::string> tableOfJournalName;
    std::map<std::string, std::string> tableOfStream;
    for (std::size_t i = 0; i < array.size(); ++i) {
        TableSetting table =
            readTableEntry(array.get(static_cast<unsigned>(i)), indexPath(path, i), warnings);
        if (!seen.insert(table.tableName).second) {
            fail("table " + jsonvalue::pythonRepr(table.tableName) + " is configured twice", path);
        }
        // Two tables under one stream name would interleave their SCHEMA and RECORD messages
        // and share one bookmark.
        auto [sameStream, distinct] = tableOfStream.emplace(table.streamName(), table.tableName);
        if (!distinct) {
            fail("tables " + jsonvalue::pythonRepr(sameStream->second) + " and " +
                     jsonvalue::pythonRepr(table.tableName) + " both become stream " +
                     jsonvalue::pythonRepr(table.streamName()),
                 indexPath(path, i));
        }
        // diffgen rows are told apart by tablename alone: two tables under one name would
        // each receive the other's events.
        auto [other, fresh] = tableOfJournalName.emplace(table.journalName, table.tableName);
        if (!fresh) {
            fail("tables " + jsonvalue::pythonRepr(other->second) + " and " +
                     jsonvalue::pythonRepr(table.tableName) + " both read journal name " +
                     jsonvalue::pythonRepr(table.journalName) +
                     " (set journal_name to what each table's trigger writes)",
                 indexPath(path, i));
        }
        tables.push_back(std::move(table));
    }
    return tables;
}

// ---- ssh_tunnel ----

std::optional<SshTunnelSettings> readSshTunnel(const Object& config,
                                               std::vector<std::string>& warnings) {
    const SettingSpec* spec = findSettingSpec("ssh_tunnel");
    if (!isGiven(config, *spec)) return std::nullopt;
    const std::string path = keyPath(kRoot, "ssh_tunnel");
    const Object& tunnel = *config.get("ssh_tunnel").extract<Object::Ptr>();
    const auto& specs = sshTunnelSettingSpecs();
    checkValues(tunnel, specs, path);
    warnUnknownKeys(tunnel, specs, "key", path, warnings);
    if (!effectiveValue(tunnel, specs, "enable").convert<bool>()) return std::nullopt;
    const auto text = [&](const std::string& name, bool needed) {
        const JsonValue given = effectiveValue(tunnel, specs, name);
        const std::string value = given.isEmpty() ? "" : given.convert<std::string>();
        if (needed && value.empty()) {
            fail("'" + name + "' is required when ssh_tunnel.enable is true", path);
        }
        return value;
    };
    SshTunnelSettings settings;
    settings.host = text("host", true);
    settings.port = static_cast<int>(*jsonvalue::toInt64(effectiveValue(tunnel, specs, "port")));
    settings.username = text("username", true);
    settings.privateKey = text("private_key", true);
    settings.privateKeyPassword = text("private_key_password", false);
    settings.knownHosts = text("known_hosts", false);
    // The core forwards to host:port as the bastion sees them and cannot know a dialect's
    // standard port, so both must be written out.
    for (const char* name : {"host", "port"}) {
        if (!isGiven(config, *findSettingSpec(name))) {
            throw ConfigError(std::string("'") + name +
                              "' (the database as the bastion reaches it) is required when "
                              "ssh_tunnel.enable is true");
        }
    }
    settings.targetHost = textSetting(config, "host");
    settings.targetPort = static_cast<int>(integerSetting(config, "port"));
    return settings;
}

// ---- end of ssh_tunnel ----

std::vector<std::pair<std::string, std::string>> connectionOptionsOf(const Object& config,
                                                                     const PluginSettings& plugin) {
    std::vector<std::pair<std::string, std::string>> options;
    for (const auto& spec : settingSpecs()) {
        if (!spec.driverOption) continue;
        const JsonValue value = effectiveValue(config, spec);
        if (!value.isEmpty()) options.emplace_back(spec.name, jsonvalue::scalarText(value));
    }
    // The plugin's own defaults are its to apply.
    for (const auto& spec : plugin.specs) {
        if (isGiven(config, spec)) {
            options.emplace_back(spec.name, jsonvalue::scalarText(config.get(spec.name)));
        }
    }
    // A plugin older than declared settings may still read settings of its own.
    if (plugin.declared) return options;
    for (const auto& name : config.getNames()) {
        const JsonValue value = config.get(name);
        if (!findSettingSpec(name) && isScalar(value)) {
            options.emplace_back(name, jsonvalue::scalarText(value));
        }
    }
    return options;
}

// An object setting as its object; null when not set (checkValues has checked the type).
Object::Ptr objectSetting(const Object& config, const std::string& name) {
    const JsonValue value = effectiveValue(config, settingSpecs(), name);
    return value.isEmpty() ? nullptr : value.extract<Object::Ptr>();
}

int64_t timesPageSize(int64_t factor, int64_t pageSize) {
    return pageSize > INT64_MAX / factor ? INT64_MAX : pageSize * factor;
}

int64_t maxPageSizeOf(int64_t given, int64_t pageSize) {
    if (given == 0) return timesPageSize(3, pageSize);
    if (given < pageSize) {
        throw ConfigError("'max_page_size' (" + std::to_string(given) +
                          ") is less than 'page_size' (" + std::to_string(pageSize) +
                          "); give at least page_size, or 0 for three times page_size");
    }
    return given;
}

// What follows from the settings: the diffgen table split, and the pages of a backlog.
void deriveSettings(TapConfig& result, int64_t maxPageSize) {
    result.diffgen = TableRef::parse(result.diffgenTable);
    result.maxPageSize = maxPageSizeOf(maxPageSize, result.pageSize);
    // Left to the tap, a backlog's pages also grow with the tables they read (PageSizer).
    result.widestPageSize =
        maxPageSize == 0 ? timesPageSize(4, result.pageSize) : result.maxPageSize;
}

// The endpoint listens on an address of this host, never on a name that resolves elsewhere;
// its server (civetweb, as Debian builds it) listens on IPv4 only.
void checkIpv4Address(const std::string& address, const std::string& path) {
    in_addr parsed{};
    if (inet_pton(AF_INET, address.c_str(), &parsed) == 1) return;
    fail(jsonvalue::pythonRepr(JsonValue(address)) +
             " is not an IPv4 address (such as 127.0.0.1, or 0.0.0.0 for every interface)",
         path);
}

// Every setting with a field of its own, through its descriptor; `result` holds the defaults.
void readSettings(const Object& config, TapConfig& result) {
    for (const auto& spec : settingSpecs()) {
        if (spec.store && isGiven(config, spec)) spec.store(result, config.get(spec.name));
    }
    deriveSettings(result, integerSetting(config, "max_page_size"));
    if (result.streamMaps.flatteningEnabled &&
        !isGiven(config, *findSettingSpec("flattening_max_depth"))) {
        throw ConfigError("'flattening_max_depth' is required when flattening_enabled is true");
    }
    result.streamMaps.streamMaps = objectSetting(config, "stream_maps");
    result.streamMaps.streamMapConfig = objectSetting(config, "stream_map_config");
    result.batch = parseBatchSettings(effectiveValue(config, settingSpecs(), "batch_config"));
    checkIpv4Address(result.metricsAddress, keyPath(kRoot, "metrics_address"));
}

// A poll interval of 0 would read the log in a busy loop.
void checkPositive(const Object& config, const std::string& name) {
    const JsonValue value = effectiveValue(config, settingSpecs(), name);
    if (value.convert<double>() <= 0) {
        fail(jsonvalue::pythonRepr(value) + " is less than or equal to the minimum of 0",
             keyPath(kRoot, name));
    }
}

void mergeInto(Object& target, const Object& source) {
    for (const auto& name : source.getNames()) {
        const JsonValue value = source.get(name);
        // An object setting merges key by key, so ENV can add one key to a file's ssh_tunnel.
        if (kindOf(value) == Kind::Object && target.has(name) &&
            kindOf(target.get(name)) == Kind::Object) {
            Object::Ptr merged = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
            mergeInto(*merged, *target.get(name).extract<Object::Ptr>());
            mergeInto(*merged, *value.extract<Object::Ptr>());
            target.set(name, merged);
            continue;
        }
        target.set(name, value);
    }
}

}  // namespace

TapConfig::TapConfig() {
    for (const auto& spec : settingSpecs()) {
        if (spec.store && spec.defaultJson) spec.store(*this, jsonvalue::parse(*spec.defaultJson));
    }
    deriveSettings(*this, *jsonvalue::toInt64(
                              jsonvalue::parse(*findSettingSpec("max_page_size")->defaultJson)));
}

const std::string* TapConfig::connectionOption(std::string_view name) const {
    for (const auto& [key, value] : connectionOptions) {
        if (key == name) return &value;
    }
    return nullptr;
}

TapConfig parseConfigObject(const Object::Ptr& config, const PluginSettings& plugin) {
    if (!config) throw ConfigError("config must contain a JSON object");
    checkValues(*config, settingSpecs(), kRoot);
    checkValues(*config, plugin.specs, kRoot);
    TapConfig result;
    checkSqlDialect(textSetting(*config, "sql_dialect"), keyPath(kRoot, "sql_dialect"));
    checkTableName(textSetting(*config, "diffgen_table"), keyPath(kRoot, "diffgen_table"));
    result.tables =
        readTables(*config->getArray("tables"), keyPath(kRoot, "tables"), result.warnings);
    std::vector<SettingSpec> known = settingSpecs();
    known.insert(known.end(), plugin.specs.begin(), plugin.specs.end());
    warnUnknownKeys(*config, known, "setting", kRoot, result.warnings);
    checkPositive(*config, "poll_interval_seconds");
    readSettings(*config, result);
    result.sshTunnel = readSshTunnel(*config, result.warnings);
    result.connectionOptions = connectionOptionsOf(*config, plugin);
    return result;
}

TapConfig parseConfigObject(const std::string& jsonText) {
    JsonValue parsed;
    try {
        parsed = jsonvalue::parse(jsonText);
    } catch (const jsonvalue::JsonSyntaxError& e) {
        throw ConfigError(std::string("config is not valid JSON: ") + e.what());
    }
    if (kindOf(parsed) != Kind::Object) throw ConfigError("config must contain a JSON object");
    return parseConfigObject(parsed.extract<Object::Ptr>(), PluginSettings{});
}

namespace {

// The --config files merged in order, and the environment's settings of the tap over them when
// ENV is among them (`environment` is then set).
Object::Ptr mergedSources(const std::vector<std::string>& configArgs, const std::string& workingDir,
                          std::vector<std::string>& warnings,
                          std::optional<EnvironmentSource>& environment) {
    Object::Ptr merged = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
    bool useEnvironment = false;
    for (const auto& arg : configArgs) {
        if (arg == "ENV") {
            useEnvironment = true;
        } else {
            mergeInto(*merged, *readConfigFile(arg));
        }
    }
    // The environment wins over every file, wherever ENV stands among the flags.
    if (useEnvironment) {
        environment.emplace(workingDir, warnings);
        mergeInto(*merged, *environment->settings(flatSettingSpecs()));
    }
    return merged;
}

}  // namespace

std::string configuredDialect(const std::vector<std::string>& configArgs,
                              const std::string& workingDir) {
    std::vector<std::string> warnings;
    std::optional<EnvironmentSource> environment;
    Object::Ptr merged = mergedSources(configArgs, workingDir, warnings, environment);
    const JsonValue dialect = merged->get("sql_dialect");
    return dialect.isString() ? dialect.convert<std::string>() : std::string();
}

TapConfig loadConfig(const std::vector<std::string>& configArgs, const std::string& workingDir,
                     const PluginSettingsLookup& pluginSettingsOf) {
    std::vector<std::string> warnings;
    std::optional<EnvironmentSource> environment;
    Object::Ptr merged = mergedSources(configArgs, workingDir, warnings, environment);
    // The tap's own settings are checked first, so that a broken configuration fails as such
    // before any plugin is looked for; the plugin then says which settings are its own.
    PluginSettings plugin;
    if (pluginSettingsOf) {
        plugin = pluginSettingsOf(parseConfigObject(merged, PluginSettings{}).sqlDialect);
        if (environment) mergeInto(*merged, *environment->settings(plugin.specs));
    }
    TapConfig result = parseConfigObject(merged, plugin);
    result.warnings.insert(result.warnings.begin(), warnings.begin(), warnings.end());
    return result;
}

std::string TableSetting::streamName() const {
    std::string name = tableName;
    std::replace(name.begin(), name.end(), '.', '-');
    return name;
}

}  // namespace tapdiffgen::core

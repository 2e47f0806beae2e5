#include "config/settings.hpp"

#include <Poco/JSON/Array.h>

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "config/tap_config.hpp"
#include "util/json_value.hpp"

namespace tapdiffgen::core {

namespace {

using Poco::JSON::Array;
using Poco::JSON::Object;

// A checked value as the type of the field it is stored in. An enum field takes the index of
// the value among the setting's allowed values, so the enum lists them in the same order.
template <typename Field>
Field fieldValue(const JsonValue& value, const std::vector<std::string>& allowed) {
    if constexpr (std::is_enum_v<Field>) {
        const auto text = value.convert<std::string>();
        return static_cast<Field>(std::find(allowed.begin(), allowed.end(), text) -
                                  allowed.begin());
    } else if constexpr (std::is_same_v<Field, bool>) {
        return value.convert<bool>();
    } else if constexpr (std::is_floating_point_v<Field>) {
        return value.convert<Field>();
    } else if constexpr (std::is_integral_v<Field>) {
        return static_cast<Field>(*jsonvalue::toInt64(value));
    } else {
        return value.convert<std::string>();
    }
}

// Reads like the catalogue it builds; designated initializers would warn on every
// field left out.
class Spec {
public:
    Spec(std::string name, std::string type, std::string description) {
        spec_.name = std::move(name);
        spec_.type = std::move(type);
        spec_.description = std::move(description);
    }
    Spec& required() { return set(spec_.required, true); }
    Spec& secret() { return set(spec_.secret, true); }
    Spec& defaultJson(std::string json) { return set(spec_.defaultJson, std::move(json)); }
    Spec& defaultValue(bool value) { return defaultJson(value ? "true" : "false"); }
    Spec& defaultValue(int64_t value) { return defaultJson(std::to_string(value)); }
    Spec& defaultValue(std::string_view text) { return defaultJson(jsonvalue::quote(text)); }
    Spec& defaultValue(int value) { return defaultValue(static_cast<int64_t>(value)); }
    Spec& defaultValue(const char* text) { return defaultValue(std::string_view(text)); }
    Spec& allowed(std::vector<std::string> values) { return set(spec_.allowed, std::move(values)); }
    Spec& minimum(std::int64_t value) { return set(spec_.minimum, value); }
    Spec& maximum(std::int64_t value) { return set(spec_.maximum, value); }
    Spec& driverOption() { return set(spec_.driverOption, true); }
    Spec& orStringList() { return set(spec_.orStringList, true); }
    Spec& appliesTo(std::string part) { return set(spec_.appliesTo, std::move(part)); }
    /// The TapConfig field the value goes to; after allowed(), which an enum field maps from.
    template <typename Field>
    Spec& storedIn(Field TapConfig::*field) {
        if (std::is_enum_v<Field> && spec_.allowed.empty()) {
            throw std::logic_error("setting '" + spec_.name + "': an enum field needs allowed()");
        }
        spec_.store = [field, allowed = spec_.allowed](TapConfig& config, const JsonValue& value) {
            config.*field = fieldValue<Field>(value, allowed);
        };
        return *this;
    }
    /// A field of a part of TapConfig (streamMaps.flatteningEnabled).
    template <typename Part, typename Field>
    Spec& storedIn(Part TapConfig::*part, Field Part::*field) {
        spec_.store = [part, field, allowed = spec_.allowed](TapConfig& config,
                                                             const JsonValue& value) {
            config.*part.*field = fieldValue<Field>(value, allowed);
        };
        return *this;
    }
    operator SettingSpec() const { return spec_; }

private:
    template <typename Field, typename Value>
    Spec& set(Field& field, Value&& value) {
        field = std::forward<Value>(value);
        return *this;
    }

    SettingSpec spec_;
};

std::vector<SettingSpec> buildSettingSpecs() {
    return {
        Spec("sql_dialect", "string",
             "Dialect of the source database: the name of an installed dialect plugin "
             "(tap-diffgen --list-plugins lists them), or the absolute path of a dialect "
             "plugin (.so).")
            .required()
            .driverOption()
            .appliesTo("connection")
            .storedIn(&TapConfig::sqlDialect),
        Spec("host", "string", "Host name or IP address of the database server.")
            .driverOption()
            .appliesTo("connection"),
        Spec("port", "integer",
             "TCP port of the database server; the dialect's standard port when not "
             "set.")
            .minimum(1)
            .maximum(65535)
            .driverOption()
            .appliesTo("connection"),
        Spec("user", "string", "Database user to connect as.")
            .driverOption()
            .appliesTo("connection"),
        Spec("password", "string", "Password of the database user.")
            .secret()
            .driverOption()
            .appliesTo("connection"),
        Spec("database", "string", "Database to read from.").driverOption().appliesTo("connection"),
        Spec("tables", "array",
             "Tables to replicate, each an object with table_name (name or "
             "schema.name), pk_column (its primary key column, or a list of them), mode, "
             "start_from and journal_name.")
            .required()
            .appliesTo("streams"),
        Spec("diffgen_table", "string",
             "Audit-log table the changes are read from, as name or schema.name.")
            .defaultValue("diffgen")
            .appliesTo("journal")
            .storedIn(&TapConfig::diffgenTable),
        Spec("page_size", "integer",
             "Number of diffgen rows read per query until one comes back full; a backlog's "
             "pages after it hold max_page_size.")
            .defaultValue(10000)
            .minimum(1)
            .appliesTo("replay")
            .storedIn(&TapConfig::pageSize),
        Spec("max_page_size", "integer",
             "Number of diffgen rows read per query once a page has come back full, so that a "
             "backlog is read in pages whose fixed costs are shared by many events and whose "
             "rows are re-pulled in large statements per table; 0 means three times page_size, "
             "growing over many tables to 625 events a table and at most four times page_size; "
             "page_size keeps every page at page_size.")
            .defaultValue(0)
            .minimum(0)
            .appliesTo("replay"),
        Spec("read_ahead", "boolean",
             "While a backlog is replayed, read the next diffgen page on a second database "
             "session as the current page's rows are fetched; false keeps the run to one "
             "session.")
            .defaultValue(true)
            .appliesTo("replay")
            .storedIn(&TapConfig::readAhead),
        Spec("repull_sessions", "integer",
             "Database sessions a page's rows are re-pulled on at once, the run's own session "
             "included, each with a share of the page's tables; 1 re-pulls every row on the "
             "run's own session.")
            .defaultValue(2)
            .minimum(1)
            .maximum(16)
            .appliesTo("replay")
            .storedIn(&TapConfig::repullSessions),
        Spec("add_sdc_deleted_at", "boolean",
             "Add an _sdc_deleted_at column to every stream and set it on deleted "
             "rows.")
            .defaultValue(true)
            .appliesTo("output")
            .storedIn(&TapConfig::addSdcDeletedAt),
        Spec("connect_timeout", "integer",
             "Seconds to wait for a database connection before the attempt fails.")
            .defaultValue(10)
            .minimum(1)
            .driverOption()
            .appliesTo("connection")
            .storedIn(&TapConfig::connectTimeout),
        Spec("log_level", "string",
             "Least severe level of the log messages written to stderr: debug, info, warning or "
             "error.")
            .defaultValue("info")
            .allowed({"debug", "info", "warning", "error"})
            .appliesTo("run")
            .storedIn(&TapConfig::logLevel),
        Spec("max_run_seconds", "integer",
             "Stop a sync cleanly, with its state saved, after this many seconds; 0 "
             "means no limit.")
            .defaultValue(0)
            .minimum(0)
            .appliesTo("run")
            .storedIn(&TapConfig::maxRunSeconds),
        Spec("on_bad_event", "string",
             "What to do with a diffgen row whose op is unknown, whose table_id is NULL "
             "or whose key its column cannot hold: fail (the run; for a key, that stream "
             "alone), or skip the row with a warning.")
            .defaultValue("fail")
            .allowed({"fail", "skip"})
            .appliesTo("replay")
            .storedIn(&TapConfig::onBadEvent),
        Spec("horizon_settle_seconds", "number",
             "When the dialect cannot tell whether a transaction still holds a "
             "missing diffgen id, ids younger than this many seconds are not yet "
             "final.")
            .defaultValue(10)
            .minimum(0)
            .appliesTo("replay")
            .storedIn(&TapConfig::horizonSettleSeconds),
        Spec("horizon_wait_seconds", "integer",
             "Seconds a run waits at its end for missing diffgen ids to become final "
             "before it stops with the bookmark before them.")
            .defaultValue(30)
            .minimum(0)
            .appliesTo("replay")
            .storedIn(&TapConfig::horizonWaitSeconds),
        Spec("accept_cached_sequence", "boolean",
             "UNSAFE. Run although diffgen.id comes from a sequence whose CACHE is above 1: a "
             "session then holds ids between transactions and may commit one after the tap "
             "has read past it, and that change is lost. Without it such a run stops before "
             "any output; set the sequence's CACHE to 1 instead.")
            .defaultValue(false)
            .appliesTo("journal")
            .storedIn(&TapConfig::acceptCachedSequence),
        Spec("reconnect_attempts", "integer",
             "Times in a row a lost database connection is re-established before the "
             "run fails; a reconnected session that reads the log again gives the attempts "
             "back.")
            .defaultValue(5)
            .minimum(0)
            .appliesTo("run")
            .storedIn(&TapConfig::reconnectAttempts),
        Spec("reconnect_max_wait_seconds", "integer",
             "Longest wait, in seconds, between two reconnect attempts.")
            .defaultValue(30)
            .minimum(0)
            .appliesTo("run")
            .storedIn(&TapConfig::reconnectMaxWaitSeconds),
        // The Meltano Singer SDK's built-in capabilities, under the SDK's names.
        Spec("stream_maps", "object",
             "Stream maps as the Meltano Singer SDK defines them: per stream, properties "
             "transformed, added or removed by expressions, and the options __alias__, "
             "__filter__, __source__, __key_properties__ and __else__.")
            .appliesTo("output"),
        Spec("stream_map_config", "object", "Values the stream-map expressions read as config.")
            .appliesTo("output"),
        Spec("flattening_enabled", "boolean",
             "Flatten object properties into parent__child properties, after the stream maps.")
            .defaultValue(false)
            .appliesTo("output")
            .storedIn(&TapConfig::streamMaps, &StreamMapSettings::flatteningEnabled),
        Spec("flattening_max_depth", "integer",
             "How many levels of objects flattening expands; deeper objects and arrays become "
             "JSON text. Required when flattening_enabled is true.")
            .minimum(0)
            .appliesTo("output")
            .storedIn(&TapConfig::streamMaps, &StreamMapSettings::flatteningMaxDepth),
        Spec("batch_config", "object",
             "Write records to JSON-lines files announced by BATCH messages instead of RECORD "
             "messages: encoding (format jsonl, compression gzip or none), storage (root, a "
             "file:// folder, and prefix) and batch_size (records per file, default " +
                 std::to_string(kDefaultBatchSize) + ").")
            .appliesTo("output"),
        Spec("ssh_tunnel", "object",
             "SSH tunnel to the database through a bastion host: an object with enable, host, "
             "port, username, private_key, private_key_password and known_hosts.")
            .appliesTo("tunnel"),
        Spec("follow", "boolean",
             "After reaching the head of the diffgen log, keep reading new events until "
             "stopped, max_run_seconds or idle_exit_seconds.")
            .defaultValue(false)
            .appliesTo("follow")
            .storedIn(&TapConfig::follow),
        Spec("idle_exit_seconds", "integer",
             "End a follow run after this many seconds without a new event; 0 means never.")
            .defaultValue(0)
            .minimum(0)
            .appliesTo("follow")
            .storedIn(&TapConfig::idleExitSeconds),
        Spec("poll_interval_seconds", "number",
             "Longest wait, in seconds, between two reads of the log while following and "
             "nothing wakes the tap; shorter right after new events.")
            .defaultValue(1)
            .minimum(0)
            .appliesTo("follow")
            .storedIn(&TapConfig::pollIntervalSeconds),
        Spec("state_interval_seconds", "number",
             "While following, write a STATE at least this often, in seconds, also when "
             "idle, so that targets commit.")
            .defaultValue(30)
            .minimum(0)
            .appliesTo("follow")
            .storedIn(&TapConfig::stateIntervalSeconds),
        Spec("metrics_port", "integer",
             "Serve Prometheus metrics on /metrics at this port while the tap runs (off by "
             "default).")
            .minimum(1)
            .maximum(65535)
            .appliesTo("metrics")
            .storedIn(&TapConfig::metricsPort),
        Spec("metrics_address", "string",
             "IPv4 address the metrics endpoint binds (loopback by default; 0.0.0.0 for every "
             "interface).")
            .defaultValue("127.0.0.1")
            .appliesTo("metrics")
            .storedIn(&TapConfig::metricsAddress),
    };
}

std::vector<SettingSpec> buildSshTunnelSettingSpecs() {
    return {
        Spec("enable", "boolean",
             "Connect to the database through an SSH tunnel; host and port then name the "
             "database as the bastion reaches it.")
            .defaultValue(false)
            .appliesTo("tunnel"),
        Spec("host", "string", "Host name or IP address of the SSH bastion.").appliesTo("tunnel"),
        Spec("port", "integer", "TCP port of the SSH bastion.")
            .defaultValue(22)
            .minimum(1)
            .maximum(65535)
            .appliesTo("tunnel"),
        Spec("username", "string", "User to log in to the SSH bastion as.").appliesTo("tunnel"),
        Spec("private_key", "string",
             "Private key of that user: the text of a PEM or OpenSSH private key file.")
            .secret()
            .appliesTo("tunnel"),
        Spec("private_key_password", "string",
             "Passphrase of the private key, when the key is encrypted.")
            .secret()
            .appliesTo("tunnel"),
        Spec("known_hosts", "string",
             "Expected host key of the bastion: known_hosts lines, or the path of a "
             "known_hosts file. A different key is refused; when not set, any key is accepted "
             "with a warning that shows it.")
            .appliesTo("tunnel"),
    };
}

std::vector<SettingSpec> buildTableSettingSpecs() {
    return {
        Spec("table_name", "string", "Table to replicate, as name or schema.name.")
            .required()
            .appliesTo("streams"),
        Spec("pk_column", "string",
             "Primary key of the table, the key diffgen rows refer to: a column name, or a "
             "list of column names for a composite key (diffgen.table_id then holds the key "
             "as a JSON array in this order).")
            .required()
            .orStringList()
            .appliesTo("streams"),
        Spec("mode", "string",
             "full emits changed rows and deletions; tombstones_only emits deletions "
             "only.")
            .defaultValue("full")
            .allowed({"full", "tombstones_only"})
            .appliesTo("streams"),
        Spec("start_from", "string",
             "Where a stream without state starts: beginning replays the whole "
             "diffgen log, snapshot reads the table first and follows diffgen from "
             "there. when_needed is snapshot, and also re-snapshots a stream whose "
             "bookmark the diffgen log no longer covers (pruned or reset) instead of "
             "stopping the run.")
            .defaultValue("beginning")
            .allowed({"beginning", "snapshot", "when_needed"})
            .appliesTo("streams"),
        Spec("journal_name", "string",
             "The name the journal's triggers write into diffgen.tablename for this table. "
             "Default: table_name without its schema, as the shipped triggers write it.")
            .defaultJson("null")
            .appliesTo("streams"),
    };
}

Array::Ptr stringArray(const std::vector<std::string>& values) {
    Array::Ptr array = new Array;
    for (const auto& value : values) array->add(value);
    return array;
}

Object::Ptr propertySchema(const SettingSpec& spec);

Object::Ptr objectSchema(const std::vector<SettingSpec>& specs,
                         const std::vector<SettingSpec>& more = {}) {
    Object::Ptr schema = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
    Object::Ptr properties = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
    std::vector<std::string> required;
    for (const auto* list : {&specs, &more}) {
        for (const auto& spec : *list) {
            properties->set(spec.name, propertySchema(spec));
            if (spec.required) required.push_back(spec.name);
        }
    }
    schema->set("type", "object");
    schema->set("properties", properties);
    schema->set("required", stringArray(required));
    return schema;
}

Object::Ptr propertySchema(const SettingSpec& spec) {
    Object::Ptr schema = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
    if (spec.orStringList) {
        schema->set("type", stringArray({spec.type, "array"}));
        Object::Ptr items = new Object;
        items->set("type", spec.type);
        schema->set("items", items);
    } else {
        schema->set("type", spec.type);
    }
    schema->set("description", spec.description);
    if (spec.defaultJson) schema->set("default", jsonvalue::parse(*spec.defaultJson));
    if (!spec.allowed.empty()) schema->set("enum", stringArray(spec.allowed));
    if (spec.minimum) schema->set("minimum", *spec.minimum);
    if (spec.maximum) schema->set("maximum", *spec.maximum);
    // `tables` is the only array setting; its entries are described by their own catalogue.
    if (spec.name == "tables") {
        schema->set("minItems", 1);
        schema->set("items", objectSchema(tableSettingSpecs()));
    }
    if (spec.name == "ssh_tunnel") {
        Object::Ptr tunnel = objectSchema(sshTunnelSettingSpecs());
        schema->set("properties", tunnel->get("properties"));
    }
    if (spec.secret) {
        schema->set("secret", true);
        schema->set("writeOnly", true);
    }
    return schema;
}

}  // namespace

const std::vector<SettingSpec>& settingSpecs() {
    static const std::vector<SettingSpec> specs = buildSettingSpecs();
    return specs;
}

const std::vector<SettingSpec>& tableSettingSpecs() {
    static const std::vector<SettingSpec> specs = buildTableSettingSpecs();
    return specs;
}

const std::vector<SettingSpec>& sshTunnelSettingSpecs() {
    static const std::vector<SettingSpec> specs = buildSshTunnelSettingSpecs();
    return specs;
}

const std::vector<SettingSpec>& flatSettingSpecs() {
    static const std::vector<SettingSpec> specs = [] {
        std::vector<SettingSpec> flat;
        for (const auto& spec : settingSpecs()) {
            if (spec.name != "ssh_tunnel") {
                flat.push_back(spec);
                continue;
            }
            for (SettingSpec key : sshTunnelSettingSpecs()) {
                key.name = spec.name + "." + key.name;
                flat.push_back(std::move(key));
            }
        }
        return flat;
    }();
    return specs;
}

const SettingSpec* findFlatSettingSpec(std::string_view name) {
    for (const auto& spec : flatSettingSpecs()) {
        if (spec.name == name) return &spec;
    }
    return nullptr;
}

const SettingSpec* findSettingSpec(std::string_view name) {
    for (const auto& spec : settingSpecs()) {
        if (spec.name == name) return &spec;
    }
    return nullptr;
}

std::string settingEnvVar(std::string_view name) {
    std::string variable = "TAP_DIFFGEN_";
    for (const char c : name) {
        variable += c == '-' || c == '.'
                        ? '_'
                        : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    return variable;
}

Poco::JSON::Object::Ptr settingsJsonSchemaObject(const std::vector<SettingSpec>& pluginSettings) {
    return objectSchema(settingSpecs(), pluginSettings);
}

std::string settingsJsonSchema(const std::vector<SettingSpec>& pluginSettings) {
    return jsonvalue::write(settingsJsonSchemaObject(pluginSettings));
}

}  // namespace tapdiffgen::core

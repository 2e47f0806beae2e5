// The one catalogue of the tap's settings, one descriptor per setting (settings.cpp). The
// parser (tap_config.cpp) checks every value against it and stores it through it, the defaults
// of TapConfig are its defaults, and --about, the JSON Schema, the environment variable names,
// .env.example, the man page, the Meltano plugin definition and docs/settings.md are generated
// from it, so a setting is described in exactly one place.
#pragma once

#include <Poco/JSON/Object.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/json_value.hpp"

namespace tapdiffgen::core {

struct TapConfig;

/// One setting (or one key of a `tables` entry or of `ssh_tunnel`): what JSON Schema says of
/// it, where it takes effect, and the TapConfig field it fills. A top-level setting comes from
/// the --config files and, with --config ENV, from its TAP_DIFFGEN_<NAME> variable (an
/// `ssh_tunnel` key from TAP_DIFFGEN_SSH_TUNNEL_<KEY>); a key of a `tables` entry only from
/// the files.
struct SettingSpec {
    std::string name;         ///< "port"
    std::string type;         ///< "string", "integer", "boolean", "array", "number"
    std::string description;  ///< one sentence
    bool required = false;
    bool secret = false;                     ///< never echoed; "writeOnly" in the schema
    std::optional<std::string> defaultJson;  ///< JSON text of the default: "10000", "\"diffgen\""
    std::vector<std::string> allowed;        ///< enum values of a string setting
    /// Empty for the tap's own settings; for a plugin's, the dialects that declare it.
    std::vector<std::string> dialects;
    std::optional<std::int64_t> minimum;  ///< inclusive, for integer and number settings
    std::optional<std::int64_t> maximum;  ///< inclusive
    bool driverOption = false;            ///< handed to the dialect plugin's connect()
    /// A string setting that also takes a non-empty list of distinct strings (pk_column).
    bool orStringList = false;
    /// The part of the run that reads it: "connection", "streams", "journal", "replay",
    /// "output", "follow", "run", "tunnel", "metrics"; empty for a plugin's own setting (see
    /// `dialects`).
    std::string appliesTo;
    /// Stores a checked value (the given one, else the default) in its TapConfig field; empty
    /// for a setting read by hand (tables, max_page_size, the stream-map, batch and tunnel
    /// objects) and for a plugin's own.
    std::function<void(TapConfig&, const JsonValue&)> store;
};

/// The settings a dialect plugin adds to the configuration (TdgPluginInfo.settings), each a
/// driver option. `declared` is false for a plugin older than ABI revision 4, which cannot
/// declare any: unknown scalar settings then reach it, as they always did.
struct PluginSettings {
    bool declared = false;
    std::vector<SettingSpec> specs;
};

/// The tap's own top-level settings, in the order documentation lists them.
const std::vector<SettingSpec>& settingSpecs();

/// The keys of one `tables` entry.
const std::vector<SettingSpec>& tableSettingSpecs();

/// The keys of the `ssh_tunnel` object.
const std::vector<SettingSpec>& sshTunnelSettingSpecs();

/// Every setting that holds one value: the top-level settings, with the `ssh_tunnel` object
/// replaced by its keys named "ssh_tunnel.<key>". Each has an environment variable, a line in
/// .env.example and `--about`, and a setting of the Meltano definition (Meltano's own dotted
/// names for the keys of an object setting).
const std::vector<SettingSpec>& flatSettingSpecs();

/// The flat setting called `name` ("host", "ssh_tunnel.port"), or nullptr.
const SettingSpec* findFlatSettingSpec(std::string_view name);

/// The top-level setting called `name`, or nullptr.
const SettingSpec* findSettingSpec(std::string_view name);

/// "TAP_DIFFGEN_" + the name in upper case with '-' and '.' as '_': the variable --config ENV
/// reads (TAP_DIFFGEN_SSH_TUNNEL_HOST for ssh_tunnel.host, as Meltano names it).
std::string settingEnvVar(std::string_view name);

/// The config JSON Schema: {"type":"object","properties":{...},"required":[...]}. Secrets carry
/// "secret":true,"writeOnly":true; `tables` has its full item schema. Plugin settings follow
/// the tap's own.
Poco::JSON::Object::Ptr settingsJsonSchemaObject(const std::vector<SettingSpec>& pluginSettings);

/// settingsJsonSchemaObject() as compact JSON text.
std::string settingsJsonSchema(const std::vector<SettingSpec>& pluginSettings);

}  // namespace tapdiffgen::core

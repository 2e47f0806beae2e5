// The validated configuration of one tap run, and loading it from --config files and the
// environment the way a Meltano-SDK tap does.
#pragma once

#include <Poco/JSON/Object.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config/batch_settings.hpp"
#include "config/settings.hpp"
#include "config/ssh_tunnel_settings.hpp"
#include "config/stream_map_settings.hpp"
#include "config/table_ref.hpp"
#include "util/tap_error.hpp"

namespace tapdiffgen::core {

/// A configuration that cannot be used; what() is the one-line message for the user.
class ConfigError : public TapError {
public:
    explicit ConfigError(const std::string& message)
        : TapError(ErrorKind::Configuration, message) {}
};

/// `mode`: what a stream emits, in the order of the setting's allowed values.
enum class StreamMode { Full, TombstonesOnly };
/// `start_from`: where a stream without state starts, in the order of the setting's allowed
/// values. WhenNeeded snapshots too, and also re-snapshots a stream whose bookmark the log no
/// longer covers (Debezium's "when_needed").
enum class StartFrom { Beginning, Snapshot, WhenNeeded };
/// `on_bad_event`: what a diffgen row that cannot be replayed does. The catalogue stores the
/// setting's allowed values by their index, so the order is theirs: "fail", "skip".
enum class BadEventPolicy { Fail, Skip };

/// One entry of the `tables` setting.
struct TableSetting {
    std::string tableName;               ///< "name" or "schema.name", as configured
    TableRef table;                      ///< tableName split
    std::vector<std::string> pkColumns;  ///< the key's columns in key order, at least one
    StreamMode mode{};
    StartFrom startFrom{};
    /// What the triggers write into diffgen.tablename for this table.
    std::string journalName;
    /// False when journalName is the default (tableName without its schema).
    bool journalNameGiven = false;

    /// The stream name Singer sees: table_name with '.' replaced by '-'.
    std::string streamName() const;
};

/// The settings of a run. A default-constructed TapConfig holds every setting's default from
/// the catalogue (settings.cpp), which is the only place a default is written: the fields below
/// start empty, and the constructor stores each descriptor's default through it.
struct TapConfig {
    TapConfig();

    std::string sqlDialect;
    std::vector<TableSetting> tables;
    std::string diffgenTable;  ///< as configured
    TableRef diffgen;          ///< diffgenTable split
    int64_t pageSize{};
    /// max_page_size, 0 (three times pageSize) resolved.
    int64_t maxPageSize{};
    /// What a backlog page that reads many tables may grow to: four times pageSize when
    /// max_page_size is 0, else maxPageSize.
    int64_t widestPageSize{};
    bool readAhead{};
    int64_t repullSessions{};
    bool addSdcDeletedAt{};
    std::string logLevel;
    int64_t maxRunSeconds{};
    BadEventPolicy onBadEvent{};
    double horizonSettleSeconds{};
    int64_t horizonWaitSeconds{};
    /// accept_cached_sequence: run although diffgen.id comes from a sequence with a CACHE.
    bool acceptCachedSequence{};
    int64_t connectTimeout{};
    int64_t reconnectAttempts{};
    int64_t reconnectMaxWaitSeconds{};
    /// Stream maps and flattening (compiled against the streams once they are known).
    StreamMapSettings streamMaps;
    /// batch_config; nullopt when not set.
    std::optional<BatchSettings> batch;
    bool follow{};
    int64_t idleExitSeconds{};
    double pollIntervalSeconds{};
    double stateIntervalSeconds{};
    /// metrics_port; 0: no metrics endpoint (the setting is not given).
    int metricsPort{};
    std::string metricsAddress;
    /// Every setting that reaches the dialect driver, as text (numbers and booleans in JSON
    /// text form), each only when given: sql_dialect, host, port, user, password, database,
    /// connect_timeout, then the settings the plugin declares. For a plugin too old to declare
    /// settings, every unknown scalar setting instead, in the order given.
    std::vector<std::pair<std::string, std::string>> connectionOptions;
    /// Set when ssh_tunnel.enable is true: the connection then goes through the bastion.
    std::optional<SshTunnelSettings> sshTunnel;
    /// Non-fatal findings, e.g. "unknown setting 'hots' in config (did you mean 'host'?)".
    std::vector<std::string> warnings;

    /// The value of a connection option, or nullptr when it was not given.
    const std::string* connectionOption(std::string_view name) const;
};

/// The settings the plugin of a dialect (a sql_dialect value) declares; throws
/// PluginLoadError when there is no such plugin.
using PluginSettingsLookup = std::function<PluginSettings(const std::string& sqlDialect)>;

/// Loads and validates the configuration.
///
/// configArgs are the values of every --config flag in order: file paths, or the word ENV.
/// Files merge shallowly, later wins, except that an object setting (ssh_tunnel) merges key
/// by key. With ENV, each setting's TAP_DIFFGEN_<NAME> variable is
/// read from the environment and from the `.env` file in workingDir (environment wins over
/// .env; both win over files) and converted by the setting's type: integer, number, boolean
/// (true/false/1/0/yes/no/on/off, any case), array as JSON text. A value that does not convert
/// stays text, so validation reports it as of the wrong type. An empty value counts as unset,
/// so a copied .env.example with blanks changes nothing. A JSON null for an optional setting
/// also counts as unset. The settings pluginSettingsOf says the configured dialect's plugin
/// declares are validated, read from the environment and passed to it like the tap's own;
/// without pluginSettingsOf the configuration is read as for a plugin that declares none.
/// Throws ConfigError.
TapConfig loadConfig(const std::vector<std::string>& configArgs, const std::string& workingDir,
                     const PluginSettingsLookup& pluginSettingsOf = {});

/// The sql_dialect the configuration names, as given, without checking anything else (for
/// --about, which documents a plugin given by path); empty when there is none. Throws
/// ConfigError for a file that cannot be read.
std::string configuredDialect(const std::vector<std::string>& configArgs,
                              const std::string& workingDir);

/// Validates an already-merged JSON object, with the settings its plugin declares. Throws
/// ConfigError.
TapConfig parseConfigObject(const Poco::JSON::Object::Ptr& config, const PluginSettings& plugin);

/// Validates JSON text holding the merged object (for the fuzzer). Throws ConfigError.
TapConfig parseConfigObject(const std::string& jsonText);

}  // namespace tapdiffgen::core

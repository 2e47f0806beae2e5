#include "cli/sync_command.hpp"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include "catalog/catalog_json.hpp"
#include "catalog/diffgen_check.hpp"
#include "catalog/discovery.hpp"
#include "maps/stream_setup.hpp"
#include "plugin/plugin_loader.hpp"
#include "replay/plan_emitter.hpp"
#include "replay/run.hpp"
#include "replay/snapshot.hpp"
#include "replay/stop_signal.hpp"
#include "singer/json_text.hpp"
#include "singer/message_writer.hpp"
#include "state/tap_state.hpp"
#include "tunnel/ssh_tunnel.hpp"
#include "tunnel/tunnel_error.hpp"
#include "util/log.hpp"

namespace tapdiffgen::core {
namespace {

std::string readFile(const std::string& path, const std::string& what) {
    std::ifstream file(path, std::ios::binary);
    if (!file) throw CatalogError("cannot read " + what + " file '" + path + "'");
    std::stringstream content;
    content << file.rdbuf();
    return content.str();
}

void forwardDriverLog(int level, const std::string& message) { log::write(level, message); }

// ---- SSH tunnel ----

TdgStatus statusOf(TunnelError::Kind kind) {
    switch (kind) {
        case TunnelError::Kind::Network:
            return TDG_IO;
        case TunnelError::Kind::Authentication:
            return TDG_UNAUTHENTICATED;
        case TunnelError::Kind::Refused:
            return TDG_UNAUTHORIZED;
        case TunnelError::Kind::Config:
            break;
    }
    return TDG_INVALID_ARGUMENT;
}

std::shared_ptr<SshTunnel> openTunnel(const TapConfig& config) {
    try {
        auto tunnel =
            std::make_shared<SshTunnel>(*config.sshTunnel, static_cast<int>(config.connectTimeout),
                                        [](const std::string& message) { log::warning(message); });
        log::info("SSH tunnel through bastion " + tunnel->bastion() + " to " +
                  config.sshTunnel->targetHost + ":" +
                  std::to_string(config.sshTunnel->targetPort) + " listens on " +
                  tunnel->localHost() + ":" + std::to_string(tunnel->localPort()));
        return tunnel;
    } catch (const TunnelError& failure) {
        throw DialectError(statusOf(failure.kind()), failure.what(), "", failure.retryable());
    }
}

// The connect options the ABI defines for a tunnel: the driver opens its TCP connection to
// connect_host:connect_port and keeps host for TLS name verification. Only the engine sets
// them, so a user's setting of the same name is dropped.
std::vector<std::pair<std::string, std::string>> connectOptions(const TapConfig& config,
                                                                const SshTunnel* tunnel) {
    std::vector<std::pair<std::string, std::string>> options;
    for (const auto& option : config.connectionOptions) {
        if (option.first != "connect_host" && option.first != "connect_port") {
            options.push_back(option);
        }
    }
    if (tunnel != nullptr) {
        options.emplace_back("connect_host", tunnel->localHost());
        options.emplace_back("connect_port", std::to_string(tunnel->localPort()));
    }
    return options;
}

// ---- end of SSH tunnel ----

enum class Session { Main, ReadAhead, Repull };

// Also every reconnect: the plugin was loaded once, when the configuration was read.
std::unique_ptr<DialectConnection> connect(const std::shared_ptr<const Plugin>& plugin,
                                           const TapConfig& config,
                                           Session session = Session::Main) {
    log::debug("dialect plugin " + plugin->dialect() + " from " + plugin->path());
    std::unique_ptr<DialectConnection> connection;
    try {
        std::shared_ptr<SshTunnel> tunnel;
        if (config.sshTunnel) tunnel = openTunnel(config);
        connection = std::make_unique<DialectConnection>(
            plugin, connectOptions(config, tunnel.get()), &forwardDriverLog);
        connection->keepUntilClosed(tunnel);
    } catch (const DialectError& failure) {
        std::string message = failure.what();
        if (message.rfind("cannot connect", 0) != 0) message = "cannot connect: " + message;
        throw DialectError(failure.status(), message, failure.sqlstate(), failure.retryable());
    }
    if (session == Session::Main) {
        log::info("connected to " + connection->serverVersion());
    } else if (session == Session::ReadAhead) {
        log::debug("second session, for reading ahead, connected");
    } else {
        log::debug("another session, for re-pulling rows, connected");
    }
    return connection;
}

std::vector<std::string> configuredStreamNames(const TapConfig& config) {
    std::vector<std::string> names;
    for (const auto& table : config.tables) {
        names.push_back(table.streamName());
    }
    return names;
}

// --test: the first event of each stream, emitted as a record; no STATE.
void emitOneRecordPerStream(DialectConnection& connection, MessageWriter& writer,
                            std::vector<StreamRuntime>& streams, const TapConfig& config) {
    PlanEmitter emitter(connection, writer, 1);
    const TableRef diffgen = TableRef::parse(config.diffgenTable);
    for (auto& stream : streams) {
        EventPage page = connection.readDiffgenPage(diffgen, 0, INT64_MAX, config.pageSize,
                                                    {stream.definition->journalName});
        PageStreams only;
        only.add(stream.definition->journalName, stream.keyRule);
        PagePlan::Options options;
        options.readFor = {true};
        options.skipBadEvents = true;
        PagePlan plan(page, only, options);
        StreamPlan first;
        const StreamPlan& all = plan.streams()[0];
        if (!all.upserts.empty()) {
            first.upserts.push_back(all.upserts.front());
            first.indexUpserts();
        } else if (!all.tombstones.empty()) {
            first.tombstones.push_back(all.tombstones.front());
        }
        emitter.emit(stream, first, utcNowIso());
    }
}

// Stream maps are compiled against the configured streams before anything is written.
void attachStreamMaps(const TapConfig& config, const std::vector<StreamDefinition>& definitions,
                      std::vector<StreamRuntime>& streams) {
    if (!maps::mapsConfigured(config)) return;
    std::vector<std::string> configured;
    for (const auto& definition : definitions) configured.push_back(definition.name);
    maps::checkStreamMaps(maps::settingsOf(config), configured);
    for (const auto& name : maps::unusedStreamMaps(maps::settingsOf(config), configured)) {
        log::warning("stream_maps: '" + name +
                     "' is not a configured stream; its map applies to "
                     "nothing");
    }
    std::vector<maps::OutputName> outputs;
    for (auto& stream : streams) {
        stream.mapper = maps::mapperFor(config, *stream.definition, configured);
        for (auto& name : maps::outputNamesOf(stream.definition->name, stream.mapper.get())) {
            outputs.push_back(std::move(name));
        }
    }
    maps::checkOutputNames(outputs);
}

int runSync(const CommandLine& line, const TapConfig& config,
            const std::shared_ptr<const Plugin>& plugin, std::unique_ptr<DialectConnection>& owned,
            std::vector<StreamDefinition>& definitions, TapState& state) {
    DialectConnection& connection = *owned;

    std::vector<StreamRuntime> streams;
    for (const auto& definition : definitions) {
        if (definition.selected) streams.emplace_back(definition);
    }
    if (streams.empty()) log::warning("no stream is selected: nothing to sync");

    attachStreamMaps(config, definitions, streams);
    MessageWriter writer;
    if (const auto batches = parseBatchConfig(config.batchConfig); batches && !line.test) {
        checkBatchStorage(*batches);
        writer.writeBatches(*batches);
    }
    for (const auto& stream : streams) {
        if (stream.mapper) {
            for (const auto& output : stream.mapper->outputs()) {
                writer.writeSchema(output.name, output.schemaJson(), output.keyProperties);
            }
            continue;
        }
        writer.writeSchema(stream.definition->name, stream.definition->schemaJson(),
                           stream.definition->key.names());
    }
    if (line.testSchemaOnly) return 0;
    if (line.test) {
        emitOneRecordPerStream(connection, writer, streams, config);
        return 0;
    }
    if (!state.empty()) writer.writeState(state.toJson());

    installStopHandlers();
    Run::Connect connectReadAhead;
    if (config.readAhead) {
        connectReadAhead = [&] { return connect(plugin, config, Session::ReadAhead); };
    }
    Run::Connect connectRepull = [&] { return connect(plugin, config, Session::Repull); };
    Run run(
        runOptionsFrom(config), [&] { return connect(plugin, config); }, writer, streams, state,
        connectReadAhead, connectRepull);
    for (auto& stream : streams) {
        auto bookmark = state.bookmark(stream.definition->name);
        stream.cursor = bookmark.value_or(0);
        if (bookmark || stream.definition->startFrom != StartFrom::Snapshot) continue;
        stream.replaying = runSnapshot(connection, writer, stream, state, run.options().snapshot);
    }
    run.replay(owned);
    run.report();
    return 0;
}

}  // namespace

int runDatabaseCommand(const CommandLine& line, const TapConfig& config,
                       const std::shared_ptr<const Plugin>& plugin) {
    // The state and the catalog are read before connecting, so a broken file fails fast and
    // without touching the database. --discover ignores both, as Meltano attaches old ones.
    TapState state;
    std::optional<std::string> catalogText;
    if (!line.discover) {
        if (line.state) state = TapState::load(*line.state, configuredStreamNames(config));
        if (line.catalog) {
            catalogText = readFile(*line.catalog, "catalog");
            checkCatalogSyntax(*catalogText, *line.catalog);
        }
    }
    auto connection = connect(plugin, config);
    std::vector<StreamDefinition> definitions = discoverStreams(*connection, config);
    checkDiffgenTable(*connection, config);
    if (!line.discover) checkJournalNames(*connection, config);
    if (line.discover) {
        std::string catalog = catalogJson(definitions) + "\n";
        std::fwrite(catalog.data(), 1, catalog.size(), stdout);
        std::fflush(stdout);
        return 0;
    }
    if (catalogText) applyCatalogSelection(*catalogText, *line.catalog, definitions);
    return runSync(line, config, plugin, connection, definitions, state);
}

int listPlugins(const CommandLine& line) {
    PluginLoader loader = PluginLoader::standard(line.pluginDirs);
    std::ostringstream out;
    for (const auto& [dir, origin] : loader.searchDirs()) {
        out << "# searched: " << dir << " (" << origin << ")\n";
    }
    for (const PluginListing& plugin : loader.list()) {
        if (!plugin.error.empty()) {
            out << "unusable  " << plugin.path << ": " << plugin.error << "\n";
            continue;
        }
        out << plugin.dialect;
        for (const auto& alias : plugin.aliases) out << " (alias " << alias << ")";
        out << "  plugin " << plugin.pluginVersion << ", sdk " << plugin.sdkVersion << ", abi "
            << plugin.abiMin << ".." << plugin.abiMax << "  " << plugin.path << "  "
            << plugin.description << "\n";
    }
    std::cout << out.str() << std::flush;
    return 0;
}

}  // namespace tapdiffgen::core

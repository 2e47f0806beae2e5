#include "cli/sync_command.hpp"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "catalog/catalog_json.hpp"
#include "catalog/discovery.hpp"
#include "plugin/plugin_loader.hpp"
#include "replay/plan_emitter.hpp"
#include "replay/replayer.hpp"
#include "replay/snapshot.hpp"
#include "replay/stop_signal.hpp"
#include "singer/json_text.hpp"
#include "singer/message_writer.hpp"
#include "state/tap_state.hpp"
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

std::unique_ptr<DialectConnection> connect(const CommandLine& line, const TapConfig& config) {
    PluginLoader loader = PluginLoader::standard(line.pluginDirs);
    auto plugin = loader.load(config.sqlDialect);
    log::debug("dialect plugin " + plugin->dialect() + " from " + plugin->path());
    std::unique_ptr<DialectConnection> connection;
    try {
        connection = std::make_unique<DialectConnection>(plugin, config.connectionOptions,
                                                         &forwardDriverLog);
    } catch (const DialectError& failure) {
        throw DialectError(failure.status(),
                           "cannot connect to " + plugin->dialect() + " database: " +
                               failure.what(),
                           failure.sqlstate(), failure.retryable());
    }
    log::info("connected to " + connection->serverVersion());
    return connection;
}

std::vector<std::string> streamNames(const std::vector<StreamDefinition>& streams) {
    std::vector<std::string> names;
    for (const auto& stream : streams) names.push_back(stream.name);
    return names;
}

// --test: the first event of each stream, emitted as a record; no STATE.
void emitOneRecordPerStream(DialectConnection& connection, MessageWriter& writer,
                            std::vector<StreamRuntime>& streams, const TapConfig& config) {
    PlanEmitter emitter(connection, writer, 1);
    const TableRef diffgen = TableRef::parse(config.diffgenTable);
    for (auto& stream : streams) {
        EventPage page = connection.readDiffgenPage(diffgen, 0, INT64_MAX, config.pageSize,
                                                    {stream.definition->tableName});
        std::unordered_map<std::string, size_t> streamOfTable{{stream.definition->tableName, 0}};
        std::vector<StreamKeyRule> rules{stream.keyRule};
        std::vector<bool> accept{true};
        PagePlan::Options options;
        options.streamOfTable = &streamOfTable;
        options.rules = &rules;
        options.acceptStream = &accept;
        options.skipBadEvents = true;
        PagePlan plan(page, options);
        StreamPlan first;
        const StreamPlan& all = plan.streams()[0];
        if (!all.upserts.empty()) {
            first.upserts.push_back(all.upserts.front());
            first.upsertIndex.emplace(first.upserts.front().key, 0);
        } else if (!all.tombstones.empty()) {
            first.tombstones.push_back(all.tombstones.front());
        }
        emitter.emit(stream, first, utcNowIso());
    }
}

int runSync(const CommandLine& line, const TapConfig& config, DialectConnection& connection,
            std::vector<StreamDefinition>& definitions) {
    TapState state;
    if (line.state) state = TapState::load(*line.state, streamNames(definitions));

    std::vector<StreamRuntime> streams;
    for (const auto& definition : definitions) {
        if (definition.selected) streams.emplace_back(definition);
    }
    if (streams.empty()) log::warning("no stream is selected: nothing to sync");

    MessageWriter writer;
    for (const auto& stream : streams) {
        writer.writeSchema(stream.definition->name, stream.definition->schemaJson(),
                           {stream.definition->keyColumn});
    }
    if (line.testSchemaOnly) return 0;
    if (line.test) {
        emitOneRecordPerStream(connection, writer, streams, config);
        return 0;
    }
    if (!state.empty()) writer.writeState(state.toJson());

    installStopHandlers();
    const TableRef diffgen = TableRef::parse(config.diffgenTable);
    for (auto& stream : streams) {
        auto bookmark = state.bookmark(stream.definition->name);
        stream.cursor = bookmark.value_or(0);
        if (bookmark || stream.definition->startFrom != StartFrom::Snapshot) continue;
        SnapshotOptions snapshot{diffgen, config.pageSize, config.horizonSettleSeconds,
                                 config.horizonWaitSeconds};
        stream.replaying = runSnapshot(connection, writer, stream, state, snapshot);
    }

    ReplayOptions options;
    options.diffgen = diffgen;
    options.pageSize = config.pageSize;
    options.skipBadEvents = config.onBadEvent == "skip";
    options.maxRunSeconds = config.maxRunSeconds;
    options.horizonSettleSeconds = config.horizonSettleSeconds;
    options.horizonWaitSeconds = config.horizonWaitSeconds;
    Replayer replayer(connection, writer, streams, state, options);
    ReplayStats stats = replayer.run();
    std::ostringstream summary;
    summary << "sync done: " << stats.events << " events, " << stats.records << " records, "
            << stats.diffgenQueries << " diffgen queries, " << stats.repullQueries
            << " re-pull queries in " << stats.seconds << " s";
    if (!stats.stopReason.empty()) summary << " (" << stats.stopReason << ")";
    log::info(summary.str());
    return 0;
}

}  // namespace

int runDatabaseCommand(const CommandLine& line, const TapConfig& config) {
    auto connection = connect(line, config);
    std::vector<StreamDefinition> definitions = discoverStreams(*connection, config);
    if (line.discover) {
        std::string catalog = catalogJson(definitions) + "\n";
        std::fwrite(catalog.data(), 1, catalog.size(), stdout);
        std::fflush(stdout);
        return 0;
    }
    if (line.catalog) {
        applyCatalogSelection(readFile(*line.catalog, "catalog"), *line.catalog, definitions);
    }
    return runSync(line, config, *connection, definitions);
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

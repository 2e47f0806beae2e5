#include "cli/sync_command.hpp"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include "catalog/catalog_json.hpp"
#include "catalog/diffgen_check.hpp"
#include "catalog/discovery.hpp"
#include "catalog/sync_streams.hpp"
#include "cli/journal_check_command.hpp"
#include "metrics/metrics_endpoint.hpp"
#include "plugin/connection_factory.hpp"
#include "plugin/plugin_loader.hpp"
#include "replay/sync/sync_coordinator.hpp"
#include "state/tap_state.hpp"

namespace tapdiffgen::core {
namespace {

std::string readFile(const std::string& path, const std::string& what) {
    std::ifstream file(path, std::ios::binary);
    if (!file) throw CatalogError("cannot read " + what + " file '" + path + "'");
    std::stringstream content;
    content << file.rdbuf();
    return content.str();
}

std::vector<std::string> configuredStreamNames(const TapConfig& config) {
    std::vector<std::string> names;
    for (const auto& table : config.tables) {
        names.push_back(table.streamName());
    }
    return names;
}

int printCatalog(DialectConnection& connection, const TapConfig& config) {
    const std::vector<StreamDefinition> definitions = discoverStreams(connection, config);
    checkDiffgenTable(connection, config);
    const std::string catalog = catalogJson(definitions) + "\n";
    std::fwrite(catalog.data(), 1, catalog.size(), stdout);
    std::fflush(stdout);
    return 0;
}

SyncMode syncModeOf(const CommandLine& line) {
    if (line.testSchemaOnly) return SyncMode::TestSchemas;
    if (line.test) return SyncMode::TestRecords;
    return SyncMode::Replay;
}

}  // namespace

int runDatabaseCommand(const CommandLine& line, const TapConfig& config,
                       const std::shared_ptr<const Plugin>& plugin) {
    // The state and the catalog are read before connecting, so a broken file fails fast and
    // without touching the database. --discover ignores both, as Meltano attaches old ones.
    TapState state;
    std::optional<CatalogFile> catalog;
    if (!line.discover) {
        if (line.state) state = TapState::load(*line.state, configuredStreamNames(config));
        if (line.catalog) {
            catalog = CatalogFile{readFile(*line.catalog, "catalog"), *line.catalog};
            checkCatalogSyntax(catalog->text, catalog->path);
        }
    }
    const ConnectionFactory connections(plugin, config);
    // A port it cannot listen on ends the run before it connects.
    std::optional<MetricsEndpoint> metrics;
    if (config.metricsPort != 0 && !line.discover && !line.checkJournal) {
        metrics.emplace(config.metricsAddress, config.metricsPort);
    }
    auto connection = connections.connect();
    if (line.discover) return printCatalog(*connection, config);
    if (line.checkJournal) return checkJournal(config, state, std::move(connection));
    const std::vector<StreamDefinition> definitions =
        streamsToSync(*connection, config, catalog, state);
    SyncCoordinator coordinator(config, connections, definitions, state, syncModeOf(line));
    if (metrics) {
        coordinator.addObserver(metrics->observer());
        metrics->probeHead(connections, config.diffgen);
    }
    coordinator.run(std::move(connection));
    return 0;
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

#include "catalog/sync_streams.hpp"

#include "catalog/catalog_json.hpp"
#include "catalog/diffgen_check.hpp"
#include "catalog/discovery.hpp"
#include "catalog/journal_checks.hpp"

namespace tapdiffgen::core {

std::vector<StreamDefinition> streamsToSync(DialectConnection& connection, const TapConfig& config,
                                            const std::optional<CatalogFile>& catalog,
                                            TapState& state) {
    std::vector<StreamDefinition> definitions = discoverStreams(connection, config);
    checkDiffgenTable(connection, config);
    const JournalFacts journal = readJournalFacts(connection, config);
    checkJournalNames(connection, config, journal);
    checkIdSequence(journal, config);
    warnBypassingForeignKeys(journal, config);
    if (catalog) applyCatalogSelection(catalog->text, catalog->path, definitions);
    for (const std::string& stream : streamsToSnapshotAgain(journal, definitions, state)) {
        state.dropBookmark(stream);
    }
    return definitions;
}

}  // namespace tapdiffgen::core

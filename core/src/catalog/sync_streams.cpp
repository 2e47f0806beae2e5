#include "catalog/sync_streams.hpp"

#include "catalog/catalog_json.hpp"
#include "catalog/diffgen_check.hpp"
#include "catalog/discovery.hpp"
#include "catalog/journal_checks.hpp"
#include "catalog/journal_findings.hpp"
#include "util/log.hpp"

namespace tapdiffgen::core {
namespace {

// The findings as a run acts on them, before any output: it stops on the first that loses
// changes, warns of the others, and forgets the bookmarks of the streams to snapshot again.
void actOn(const std::vector<JournalFinding>& findings, TapState& state) {
    for (const JournalFinding& finding : findings) {
        if (finding.kind == FindingKind::LosesChanges) throw JournalError(finding.text);
    }
    for (const JournalFinding& finding : findings) {
        if (finding.kind == FindingKind::Info) {
            log::debug(finding.text);
            continue;
        }
        log::warning(finding.text);
        if (finding.snapshotAgain) state.dropBookmark(*finding.snapshotAgain);
    }
}

}  // namespace

std::vector<StreamDefinition> streamsToSync(DialectConnection& connection, const TapConfig& config,
                                            const std::optional<CatalogFile>& catalog,
                                            TapState& state) {
    std::vector<StreamDefinition> definitions = discoverStreams(connection, config);
    checkDiffgenTable(connection, config);
    const JournalFacts journal = readJournalFacts(connection, config);
    checkJournalNames(connection, config, journal);
    if (catalog) applyCatalogSelection(catalog->text, catalog->path, definitions);
    actOn(journalFindings(journal, config, definitions, state), state);
    return definitions;
}

}  // namespace tapdiffgen::core

#include "cli/journal_check_command.hpp"

#include <iostream>
#include <sstream>

#include "catalog/diffgen_check.hpp"
#include "catalog/discovery.hpp"
#include "catalog/journal_checks.hpp"
#include "catalog/journal_findings.hpp"
#include "state/tap_state.hpp"

namespace tapdiffgen::core {
namespace {

// The report as it is written: indented lines under a heading per part, findings marked by
// their kind.
class Report {
public:
    void heading(const std::string& text) { out_ << text << "\n"; }
    void line(const std::string& text) { out_ << "  " << text << "\n"; }
    void finding(const JournalFinding& finding) {
        switch (finding.kind) {
            case FindingKind::LosesChanges:
                line("PROBLEM: " + finding.text);
                ++problems_;
                return;
            case FindingKind::Warning:
                line("WARNING: " + finding.text);
                return;
            case FindingKind::Info:
                line(finding.text);
                return;
        }
    }
    size_t problems() const { return problems_; }
    std::string text() const { return out_.str(); }

private:
    std::ostringstream out_;
    size_t problems_ = 0;
};

std::optional<int64_t> oldestEventOf(DialectConnection& connection, const TableRef& diffgen,
                                     const std::vector<std::string>& journalNames) {
    EventPage page = connection.readDiffgenPage(diffgen, 0, INT64_MAX, 1, journalNames);
    if (page.empty()) return std::nullopt;
    return page[0].id;
}

// What only the report reads of the log, one indexed read each: events under a partition's
// name, and the table's oldest event.
void reportEvents(Report& report, DialectConnection& connection, const TapConfig& config,
                  size_t index, const JournalFacts& facts) {
    const TableSetting& table = config.tables[index];
    const TableJournal* journal = facts.table(index);
    if (journal != nullptr && !journal->partitions.empty()) {
        std::vector<std::string> names;
        for (const TableRef& partition : journal->partitions) {
            names.push_back(partition.name);
            names.push_back(partition.display());
        }
        if (std::optional<int64_t> found = oldestEventOf(connection, config.diffgen, names)) {
            report.finding({FindingKind::LosesChanges, index,
                            "diffgen has events under a partition's name (from id " +
                                std::to_string(*found) +
                                "), which no stream reads: journal the partitioned table's own "
                                "name",
                            std::nullopt});
        }
    }
    const std::optional<int64_t> oldest =
        oldestEventOf(connection, config.diffgen, {table.journalName});
    report.line(oldest ? "oldest event: id " + std::to_string(*oldest) : "events: none yet");
}

}  // namespace

int checkJournal(const TapConfig& config, const TapState& state,
                 std::unique_ptr<DialectConnection> connection) {
    const std::vector<StreamDefinition> streams = discoverStreams(*connection, config);
    checkDiffgenTable(*connection, config);
    const JournalFacts facts = readJournalFacts(*connection, config);
    const std::vector<JournalFinding> findings = journalFindings(facts, config, streams, state);
    Report report;
    report.heading("diffgen table " + config.diffgenTable + " (" + connection->serverVersion() +
                   ")");
    for (const JournalFinding& finding : findings) {
        if (!finding.table) report.finding(finding);
    }
    for (size_t i = 0; i < streams.size(); ++i) {
        const TableSetting& table = config.tables[i];
        report.heading("table " + table.tableName + " (stream " + streams[i].name +
                       ", journal name '" + table.journalName + "')");
        for (const JournalFinding& finding : findings) {
            if (finding.table == i) report.finding(finding);
        }
        reportEvents(report, *connection, config, i, facts);
    }
    const size_t problems = report.problems();
    report.heading(problems == 0
                       ? "no problem found"
                       : std::to_string(problems) + (problems == 1 ? " problem" : " problems") +
                             " that can lose changes");
    std::cout << report.text() << std::flush;
    return problems == 0 ? 0 : 1;
}

}  // namespace tapdiffgen::core

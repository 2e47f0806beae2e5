#include "cli/journal_check_command.hpp"

#include <algorithm>
#include <iostream>
#include <set>
#include <sstream>

#include "catalog/diffgen_check.hpp"
#include "catalog/discovery.hpp"
#include "catalog/journal_checks.hpp"
#include "state/tap_state.hpp"
#include "util/joined.hpp"

namespace tapdiffgen::core {
namespace {

// The report as it is written: indented lines under a heading per part, problems marked.
class Report {
public:
    void heading(const std::string& text) { out_ << text << "\n"; }
    void line(const std::string& text) { out_ << "  " << text << "\n"; }
    void problem(const std::string& text) {
        out_ << "  PROBLEM: " << text << "\n";
        ++problems_;
    }
    size_t problems() const { return problems_; }
    std::string text() const { return out_.str(); }

private:
    std::ostringstream out_;
    size_t problems_ = 0;
};

std::string quoted(const std::string& name) { return "'" + name + "'"; }

std::optional<int64_t> oldestEventOf(DialectConnection& connection, const TableRef& diffgen,
                                     const std::vector<std::string>& journalNames) {
    EventPage page = connection.readDiffgenPage(diffgen, 0, INT64_MAX, 1, journalNames);
    if (page.empty()) return std::nullopt;
    return page[0].id;
}

void reportLog(Report& report, const JournalFacts& facts) {
    if (!facts.bounds) {
        report.line(
            "events: the dialect plugin cannot read the log's bounds (pruning and resets "
            "are not noticed)");
        return;
    }
    const JournalBounds& bounds = *facts.bounds;
    std::string events = bounds.empty ? "events: none"
                                      : "events: ids " + std::to_string(bounds.oldestId) + " to " +
                                            std::to_string(bounds.newestId);
    if (bounds.nextId) events += "; next id " + std::to_string(*bounds.nextId);
    report.line(events);
}

void reportInspection(Report& report, const JournalFacts& facts, const TapConfig& config) {
    if (!facts.inspection) {
        report.line(
            "the dialect plugin cannot inspect the journal: the id sequence, triggers, "
            "partitions and foreign keys are not checked");
        return;
    }
    const JournalInspection& inspection = *facts.inspection;
    const std::string source = inspection.idSource.value_or("the id source (not readable)");
    if (inspection.idCache > 1) {
        report.problem(source + " has CACHE " + std::to_string(inspection.idCache) +
                       ": a session can commit a cached id after the tap read past it; run "
                       "ALTER SEQUENCE " +
                       source + " CACHE 1" +
                       (config.acceptCachedSequence ? " (accept_cached_sequence is true)" : ""));
    } else {
        report.line("id source: " + source +
                    (inspection.idCache == 1 ? ", one id at a time" : ", cache unknown"));
    }
    if (inspection.horizonProblem) {
        report.problem(
            "ids held by running transactions cannot be seen: " + *inspection.horizonProblem +
            "; until then a transaction open longer "
            "than horizon_settle_seconds can be skipped");
    } else {
        report.line("horizon: running transactions are visible");
    }
}

// The statements the triggers journal, against the three every journalled table needs.
void reportTriggers(Report& report, const TableSetting& table, const TableJournal& journal) {
    if (journal.triggers.empty()) {
        report.problem(
            "no trigger of this table writes into diffgen, as far as the catalog "
            "shows: its changes are never journalled");
        return;
    }
    std::set<std::string> covered;
    for (const JournalTrigger& trigger : journal.triggers) {
        std::string line = "trigger " + trigger.name + " on " + trigger.events;
        std::istringstream events(trigger.events);
        for (std::string event; std::getline(events >> std::ws, event, ',');) covered.insert(event);
        if (!trigger.journalName) {
            report.line(line + " writes a journal name the catalog does not show");
        } else if (*trigger.journalName != table.journalName) {
            report.problem(line + " writes " + quoted(*trigger.journalName) +
                           ", not the journal name " + quoted(table.journalName) +
                           ": set journal_name, or fix the trigger");
        } else {
            report.line(line + " writes " + quoted(*trigger.journalName));
        }
    }
    for (const char* event : {"INSERT", "UPDATE", "DELETE"}) {
        if (covered.count(event) == 0) {
            report.problem(std::string("no trigger journals ") + event + "s of this table");
        }
    }
}

void reportKey(Report& report, const StreamDefinition& stream) {
    std::vector<std::string> primary;
    for (const ColumnDescription& column : stream.columns) {
        if (column.primaryKey) primary.push_back(column.name);
    }
    const std::vector<std::string> key = stream.key.names();
    if (primary == key) {
        report.line("key: " + joined(key, ", ") + ", the table's primary key");
    } else if (primary.empty()) {
        report.line("key: " + joined(key, ", ") +
                    "; the table has no primary key, so pk_column must "
                    "name a key that is unique and never NULL");
    } else {
        report.line("key: " + joined(key, ", ") + ", not the table's primary key (" +
                    joined(primary, ", ") + "): its triggers must journal pk_column's values");
    }
}

void reportPartitions(Report& report, DialectConnection& connection, const TableRef& diffgen,
                      const TableJournal& journal) {
    if (journal.partitions.empty()) return;
    std::vector<std::string> names;
    std::vector<std::string> shown;
    for (const TableRef& partition : journal.partitions) {
        names.push_back(partition.name);
        names.push_back(partition.display());
        shown.push_back(partition.display());
    }
    report.line("partitions: " + joined(shown, ", "));
    if (std::optional<int64_t> found = oldestEventOf(connection, diffgen, names)) {
        report.problem("diffgen has events under a partition's name (from id " +
                       std::to_string(*found) +
                       "), which no stream reads: journal the "
                       "partitioned table's own name");
    }
}

void reportForeignKeys(Report& report, const TableJournal& journal) {
    for (const BypassingForeignKey& key : journal.bypassingForeignKeys) {
        report.problem("foreign key " + key.constraintName + " (" + key.actions + " from " +
                       quoted(key.parent.display()) +
                       ") changes rows without firing the "
                       "triggers: those changes never reach diffgen");
    }
}

void reportStream(Report& report, const StreamDefinition& stream, const JournalFacts& facts,
                  const TapState& state) {
    const std::optional<int64_t> bookmark = state.bookmark(stream.name);
    if (!bookmark) {
        report.line(
            "state: no bookmark (a first run starts from " +
            std::string(stream.startFrom == StartFrom::Beginning ? "the beginning" : "a snapshot") +
            ")");
        return;
    }
    if (!facts.bounds) {
        report.line("state: bookmark " + std::to_string(*bookmark));
        return;
    }
    if (std::optional<LostCoverage> lost = facts.bounds->lostAfter(*bookmark)) {
        if (stream.startFrom == StartFrom::WhenNeeded) {
            report.line(lost->describe(stream.name) + "; the next run snapshots it again");
        } else {
            report.problem(lost->describe(stream.name) + "; " +
                           snapshotAgainHint(stream.tableName));
        }
        return;
    }
    const int64_t behind = facts.bounds->empty ? 0 : facts.bounds->newestId - *bookmark;
    report.line("state: bookmark " + std::to_string(*bookmark) + ", " +
                std::to_string(std::max<int64_t>(0, behind)) + " ids behind the newest event");
}

void reportTable(Report& report, DialectConnection& connection, const TapConfig& config,
                 size_t index, const StreamDefinition& stream, const JournalFacts& facts,
                 const TapState& state) {
    const TableSetting& table = config.tables[index];
    const TableRef& diffgen = config.diffgen;
    report.heading("table " + table.tableName + " (stream " + stream.name + ", journal name " +
                   quoted(table.journalName) + ")");
    reportKey(report, stream);
    if (const TableJournal* journal = facts.table(index)) {
        if (facts.triggersHidden) {
            report.line("triggers: not listed: " + *facts.triggersHidden);
        } else {
            reportTriggers(report, table, *journal);
        }
        reportPartitions(report, connection, diffgen, *journal);
        reportForeignKeys(report, *journal);
    }
    const std::optional<int64_t> oldest = oldestEventOf(connection, diffgen, {table.journalName});
    report.line(oldest ? "oldest event: id " + std::to_string(*oldest) : "events: none yet");
    reportStream(report, stream, facts, state);
}

}  // namespace

int checkJournal(const TapConfig& config, const TapState& state,
                 std::unique_ptr<DialectConnection> connection) {
    const std::vector<StreamDefinition> streams = discoverStreams(*connection, config);
    checkDiffgenTable(*connection, config);
    const JournalFacts facts = readJournalFacts(*connection, config, true);
    Report report;
    report.heading("diffgen table " + config.diffgenTable + " (" + connection->serverVersion() +
                   ")");
    reportLog(report, facts);
    reportInspection(report, facts, config);
    for (size_t i = 0; i < streams.size(); ++i) {
        reportTable(report, *connection, config, i, streams[i], facts, state);
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

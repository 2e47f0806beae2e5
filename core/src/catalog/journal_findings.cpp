#include "catalog/journal_findings.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>

#include "util/joined.hpp"

namespace tapdiffgen::core {
namespace {

std::string quoted(const std::string& name) { return "'" + name + "'"; }

// Collects findings, each under the table being looked at.
class Findings {
public:
    void about(std::optional<size_t> table) { table_ = table; }
    void add(FindingKind kind, std::string text) {
        list_.push_back(JournalFinding{kind, table_, std::move(text), std::nullopt});
    }
    void snapshotAgain(std::string text, const std::string& stream) {
        list_.push_back(JournalFinding{FindingKind::Warning, table_, std::move(text), stream});
    }
    std::vector<JournalFinding> take() { return std::move(list_); }

private:
    std::optional<size_t> table_;
    std::vector<JournalFinding> list_;
};

void addBounds(Findings& findings, const JournalFacts& facts, const TapConfig& config) {
    if (!facts.bounds) {
        findings.add(FindingKind::Info,
                     "events: the dialect plugin cannot read the log's bounds (pruning and "
                     "resets are not noticed)");
        return;
    }
    const JournalBounds& bounds = *facts.bounds;
    std::string events = bounds.empty ? "events: none"
                                      : "events: ids " + std::to_string(bounds.oldestId) + " to " +
                                            std::to_string(bounds.newestId);
    if (bounds.nextId) events += "; next id " + std::to_string(*bounds.nextId);
    findings.add(FindingKind::Info, events);
    const std::string record = pruneRecordName(config);
    if (!bounds.highestPrunedId) {
        findings.add(FindingKind::Info,
                     "prune record: none (" + record +
                         "): a gap below the oldest event is taken for a prune, so ids rolled "
                         "back right after a prune of everything read stop a run; "
                         "packaging/diffgen/ installs the record");
    } else if (bounds.pruneRecordPredatesReset()) {
        const std::string past = bounds.nextId
                                     ? "at or past the next id " + std::to_string(*bounds.nextId)
                                     : "past the newest event " + std::to_string(bounds.newestId);
        findings.add(FindingKind::Warning,
                     "the prune record " + record + " says ids up to " +
                         std::to_string(*bounds.highestPrunedId) + " were deleted, " + past +
                         ": it is from before the ids restarted, so prunes are told by gaps "
                         "again; run UPDATE " +
                         record + " SET highest_pruned_id = 0");
    } else {
        findings.add(FindingKind::Info, "prune record: " + record + ", ids up to " +
                                            std::to_string(*bounds.highestPrunedId) +
                                            " deleted: prunes are known, not guessed");
    }
}

void addIdSource(Findings& findings, const JournalFacts& facts, const TapConfig& config) {
    if (!facts.inspection) {
        findings.add(FindingKind::Info,
                     "the dialect plugin cannot inspect the journal: the id sequence, triggers, "
                     "partitions and foreign keys are not checked");
        return;
    }
    const JournalInspection& inspection = *facts.inspection;
    if (inspection.idCache > 1) {
        const std::string source = inspection.idSource.value_or("the sequence of diffgen.id");
        const std::string risk =
            "diffgen.id comes from " + source + " with CACHE " +
            std::to_string(inspection.idCache) +
            ": a session holds cached ids between its transactions and can commit one after "
            "the tap has read past it, and that change is lost";
        if (config.acceptCachedSequence) {
            findings.add(FindingKind::Warning, risk + " (accept_cached_sequence is true)");
        } else {
            findings.add(FindingKind::LosesChanges,
                         risk + "; run ALTER SEQUENCE " + source +
                             " CACHE 1, or set accept_cached_sequence to true to accept the risk");
        }
    } else {
        findings.add(FindingKind::Info,
                     "id source: " + inspection.idSource.value_or("the id source (not readable)") +
                         (inspection.idCache == 1 ? ", one id at a time" : ", cache unknown"));
    }
    // The plugin warns of it itself, once per session: here it is a line of the report.
    if (inspection.horizonProblem) {
        findings.add(FindingKind::Info,
                     "horizon: ids held by running transactions cannot be "
                     "seen: " +
                         *inspection.horizonProblem +
                         "; until then a transaction open longer than "
                         "horizon_settle_seconds can be skipped");
    } else {
        findings.add(FindingKind::Info, "horizon: running transactions are visible");
    }
}

void addKey(Findings& findings, const StreamDefinition& stream) {
    std::vector<std::string> primary;
    for (const ColumnDescription& column : stream.columns) {
        if (column.primaryKey) primary.push_back(column.name);
    }
    const std::vector<std::string> key = stream.key.names();
    if (primary == key) {
        findings.add(FindingKind::Info, "key: " + joined(key, ", ") + ", the table's primary key");
    } else if (primary.empty()) {
        findings.add(FindingKind::Info, "key: " + joined(key, ", ") +
                                            "; the table has no primary key, so pk_column must "
                                            "name a key that is unique and never NULL");
    } else {
        findings.add(FindingKind::Info,
                     "key: " + joined(key, ", ") + ", not the table's primary key (" +
                         joined(primary, ", ") + "): its triggers must journal pk_column's values");
    }
}

// Column names compare as the databases that journal them mostly do: without regard to case.
bool sameColumns(const std::vector<std::string>& left, const std::vector<std::string>& right) {
    const auto lower = [](std::string name) {
        for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return name;
    };
    if (left.size() != right.size()) return false;
    for (size_t i = 0; i < left.size(); ++i) {
        if (lower(left[i]) != lower(right[i])) return false;
    }
    return true;
}

// The statements the triggers journal, against the three every journalled table needs; the
// journal name and the key columns they write, against the configuration.
void addTriggers(Findings& findings, const TableSetting& table, const StreamDefinition& stream,
                 const TableJournal& journal) {
    const std::string subject = "table '" + table.tableName + "': ";
    if (journal.triggers.empty()) {
        findings.add(FindingKind::Warning,
                     subject +
                         "no trigger of this table writes into diffgen, as far as the catalog "
                         "shows: its changes are never journalled");
        return;
    }
    std::set<std::string> covered;
    const std::vector<std::string> key = stream.key.names();
    for (const JournalTrigger& trigger : journal.triggers) {
        const std::string named = "trigger " + trigger.name + " on " + trigger.events;
        std::istringstream events(trigger.events);
        for (std::string event; std::getline(events >> std::ws, event, ',');) covered.insert(event);
        if (!trigger.journalName) {
            findings.add(FindingKind::Info,
                         named + " writes a journal name the catalog does not show");
        } else if (*trigger.journalName != table.journalName) {
            findings.add(FindingKind::LosesChanges,
                         subject + named + " writes " + quoted(*trigger.journalName) +
                             ", not the journal name " + quoted(table.journalName) +
                             ": set journal_name, or fix the trigger");
        } else {
            findings.add(FindingKind::Info, named + " writes " + quoted(*trigger.journalName));
        }
        if (trigger.keyColumns && !sameColumns(*trigger.keyColumns, key)) {
            findings.add(FindingKind::LosesChanges,
                         subject + named + " journals key column(s) (" +
                             joined(*trigger.keyColumns, ", ") +
                             ") into diffgen.table_id, but pk_column is (" + joined(key, ", ") +
                             "): the tap would read other rows than the ones that changed; set "
                             "pk_column to the journalled columns in their order, or journal "
                             "pk_column's");
        }
    }
    for (const char* event : {"INSERT", "UPDATE", "DELETE"}) {
        if (covered.count(event) == 0) {
            findings.add(FindingKind::Warning,
                         subject + "no trigger journals " + event + "s of this table");
        }
    }
}

void addForeignKeys(Findings& findings, const TableSetting& table, const TableJournal& journal) {
    if (journal.bypassingForeignKeys.empty()) return;
    std::string names;
    for (const BypassingForeignKey& key : journal.bypassingForeignKeys) {
        names += (names.empty() ? "" : ", ") + key.constraintName + " (" + key.actions + " from '" +
                 key.parent.display() + "')";
    }
    findings.add(FindingKind::Warning,
                 "table '" + table.tableName + "': foreign key " + names +
                     " changes its rows without firing its triggers, so those changes never "
                     "reach diffgen and the replica keeps them as they were; replace the "
                     "action by a trigger on the parent (packaging/diffgen/mysql.sql)");
}

void addStream(Findings& findings, const JournalFacts& facts, const StreamDefinition& stream,
               const TapState& state) {
    const std::optional<int64_t> bookmark = state.bookmark(stream.name);
    if (!bookmark) {
        findings.add(FindingKind::Info,
                     "state: no bookmark (a first run starts from " +
                         std::string(stream.startFrom == StartFrom::Beginning ? "the beginning"
                                                                              : "a snapshot") +
                         ")");
        if (facts.bounds && stream.startFrom == StartFrom::Beginning && !facts.bounds->empty &&
            facts.bounds->oldestId > 1) {
            findings.add(FindingKind::Warning,
                         "stream '" + stream.name + "': diffgen's oldest event is id " +
                             std::to_string(facts.bounds->oldestId) +
                             ", so rows last changed before it are not replayed; "
                             "\"start_from\": \"snapshot\" reads them from the table");
        }
        return;
    }
    if (!facts.bounds) {
        findings.add(FindingKind::Info, "state: bookmark " + std::to_string(*bookmark));
        return;
    }
    if (std::optional<LostCoverage> lost = facts.bounds->lostAfter(*bookmark)) {
        if (stream.startFrom == StartFrom::WhenNeeded) {
            findings.snapshotAgain(lost->describe(stream.name) +
                                       "; start_from is when_needed, so the table is "
                                       "snapshotted again",
                                   stream.name);
        } else {
            findings.add(FindingKind::LosesChanges,
                         lost->describe(stream.name) + "; " + snapshotAgainHint(stream.tableName));
        }
        return;
    }
    const int64_t behind = facts.bounds->empty ? 0 : facts.bounds->newestId - *bookmark;
    findings.add(FindingKind::Info, "state: bookmark " + std::to_string(*bookmark) + ", " +
                                        std::to_string(std::max<int64_t>(0, behind)) +
                                        " ids behind the newest event");
}

}  // namespace

std::string pruneRecordName(const TapConfig& config) { return config.diffgenTable + "_pruned"; }

std::vector<JournalFinding> journalFindings(const JournalFacts& facts, const TapConfig& config,
                                            const std::vector<StreamDefinition>& streams,
                                            const TapState& state) {
    Findings findings;
    addBounds(findings, facts, config);
    addIdSource(findings, facts, config);
    for (size_t i = 0; i < streams.size() && i < config.tables.size(); ++i) {
        const StreamDefinition& stream = streams[i];
        if (!stream.selected) continue;
        const TableSetting& table = config.tables[i];
        findings.about(i);
        addKey(findings, stream);
        if (const TableJournal* journal = facts.table(i)) {
            if (facts.triggersHidden) {
                findings.add(FindingKind::Info, "triggers: not listed: " + *facts.triggersHidden);
            } else if (facts.triggersListed) {
                addTriggers(findings, table, stream, *journal);
            }
            if (!journal->partitions.empty()) {
                std::vector<std::string> shown;
                for (const TableRef& partition : journal->partitions) {
                    shown.push_back(partition.display());
                }
                findings.add(FindingKind::Info, "partitions: " + joined(shown, ", "));
            }
            addForeignKeys(findings, table, *journal);
        }
        addStream(findings, facts, stream, state);
    }
    return findings.take();
}

}  // namespace tapdiffgen::core

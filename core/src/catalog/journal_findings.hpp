// The journal's rules, once: from what the dialect plugin read of the journal (JournalFacts),
// the configuration and the state, the list of findings that both a run's start-up checks and
// --check-journal use. A run stops before any output on the first finding that loses changes,
// logs the warnings and snapshots again the streams a finding names; --check-journal prints
// every finding under its table and exits 1 when one loses changes. docs/journal.md lists the
// rules ("What a run checks, and when", "Every situation, and what the tap does").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "catalog/journal_checks.hpp"
#include "catalog/stream_definition.hpp"
#include "config/tap_config.hpp"
#include "state/tap_state.hpp"

namespace tapdiffgen::core {

enum class FindingKind {
    /// Changes are lost unless the user acts: a run stops, --check-journal exits 1.
    LosesChanges,
    /// Worth acting on, but the run goes on.
    Warning,
    /// What the journal looks like (--check-journal's report lines).
    Info,
};

struct JournalFinding {
    FindingKind kind = FindingKind::Info;
    /// The configured table (config.tables[*table]) it is about; none for the journal itself.
    std::optional<size_t> table;
    /// One line; a finding that is not Info names its table or stream itself.
    std::string text;
    /// A stream whose bookmark the log no longer covers and whose table says start_from
    /// when_needed: to be snapshotted again.
    std::optional<std::string> snapshotAgain;
};

/// Every finding, the journal's first, then each selected stream's (streams[i] is the stream of
/// config.tables[i]) in configuration order.
std::vector<JournalFinding> journalFindings(const JournalFacts& facts, const TapConfig& config,
                                            const std::vector<StreamDefinition>& streams,
                                            const TapState& state);

/// What the journal's prune record is called: the diffgen table's name with _pruned.
std::string pruneRecordName(const TapConfig& config);

}  // namespace tapdiffgen::core

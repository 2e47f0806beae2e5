// Before any output: what the dialect plugin reads of the journal (ABI revisions 5 and 6), for
// the rules in catalog/journal_findings.hpp, which both a run's start-up checks and
// --check-journal apply.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "catalog/stream_definition.hpp"
#include "config/tap_config.hpp"
#include "plugin/dialect_connection.hpp"
#include "state/tap_state.hpp"
#include "util/tap_error.hpp"

namespace tapdiffgen::core {

/// The journal cannot tell every change, and the run must not go on; what() is one line.
class JournalError : public TapError {
public:
    explicit JournalError(const std::string& message) : TapError(ErrorKind::Journal, message) {}
};

/// What a user does about a stream whose bookmark the log no longer covers.
std::string snapshotAgainHint(const std::string& tableName);

/// What the dialect plugin told of the journal; each part nullopt when it cannot tell.
struct JournalFacts {
    std::optional<JournalInspection> inspection;
    std::optional<JournalBounds> bounds;
    /// The inspection lists each table's journal triggers.
    bool triggersListed = false;
    /// Why the triggers could not be listed (a privilege the session lacks).
    std::optional<std::string> triggersHidden;

    /// The inspection of config.tables[i], or nullptr.
    const TableJournal* table(size_t i) const;
};

/// Reads the bounds and the inspection of config.tables with their triggers (when the session
/// may not list them, without, and triggersHidden says why), in a bounded number of
/// statements whatever the number of tables; says once, at info level, what this plugin
/// cannot tell.
JournalFacts readJournalFacts(DialectConnection& connection, const TapConfig& config);

}  // namespace tapdiffgen::core

// Before any output: whether the journal can still tell every change, from what the dialect
// plugin reads of it (ABI revision 5). A run stops here, with one line naming what is wrong and
// the fix, rather than write a replica with changes missing: a diffgen id sequence whose cache
// lets a session commit an id long after the tap passed it, and a stream bookmark that the log
// no longer covers (pruned or reset). Foreign-key actions that bypass the triggers, and a log
// that no longer holds its beginning, are warned about.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "catalog/stream_definition.hpp"
#include "config/tap_config.hpp"
#include "plugin/dialect_connection.hpp"
#include "state/tap_state.hpp"

namespace tapdiffgen::core {

/// The journal cannot tell every change, and the run must not go on; what() is one line.
class JournalError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// What a user does about a stream whose bookmark the log no longer covers.
std::string snapshotAgainHint(const std::string& tableName);

/// What the dialect plugin told of the journal; each part nullopt when it cannot tell.
struct JournalFacts {
    std::optional<JournalInspection> inspection;
    std::optional<JournalBounds> bounds;
    /// Why the triggers asked for could not be listed (a privilege the session lacks).
    std::optional<std::string> triggersHidden;

    /// The inspection of config.tables[i], or nullptr.
    const TableJournal* table(size_t i) const;
};

/// Reads the bounds and the inspection of config.tables (with their triggers when asked; when
/// the session may not list them, without, and triggersHidden says why); says once, at info
/// level, what this plugin cannot tell.
JournalFacts readJournalFacts(DialectConnection& connection, const TapConfig& config,
                              bool includeTriggers = false);

/// Throws JournalError naming the sequence and the fix when diffgen.id comes from a sequence
/// whose cache is above 1, unless accept_cached_sequence (then a warning).
void checkIdSequence(const JournalFacts& facts, const TapConfig& config);

/// A warning per configured table whose rows foreign-key actions change without its triggers,
/// naming the constraints.
void warnBypassingForeignKeys(const JournalFacts& facts, const TapConfig& config);

/// The selected streams whose bookmark the log no longer covers and whose table says
/// start_from when_needed: they are to be snapshotted again. Any other such stream throws
/// JournalError (the first one, in configuration order). A stream without a bookmark that
/// replays from the beginning of a log whose first events are gone is warned about.
std::vector<std::string> streamsToSnapshotAgain(const JournalFacts& facts,
                                                const std::vector<StreamDefinition>& streams,
                                                const TapState& state);

}  // namespace tapdiffgen::core

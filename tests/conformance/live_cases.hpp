// The live cases: data-driven checks against a real server, one directory each (case_files.hpp).
// expected.json's "check" selects what is checked:
//   "table"          describe_table, scan_table and fetch_rows of one table against expected
//                    columns (name, kind, key, JSON Schema) and rows
//   "diffgen"        read_diffgen_page bounds, limits and table filters, and max_diffgen_id
//   "connect-error"  connect with changed options fails with the expected status
//   "missing-table"  every call on a table that does not exist fails with the expected status
//   "null-arguments" NULL pointers on a live connection are errors, and the connection survives
//   "cancel"         a cancel from another thread stops a long scan or fetch with CANCELLED
//   "cancel-statement" ... and interrupts a statement still running on the server, in a bound
//   "keyset"         scans page and fetches chunk keys correctly whatever their size
//   "horizon"        a page's horizon mark stays pending while a writer that began after the
//                    last commit holds its transaction open
//   "wait-for-change" wait_for_change waits out its time-out, and wakes on a signal
//   "journal-bounds" journal_bounds against logs the case filled, pruned and emptied
//   "describe-tables" describe_tables on one connection sees each alteration of a table
//   "inspect-journal" inspect_journal against triggers, foreign keys and a log the case made
//   "lost-connection" a session the server ends mid-statement fails the call with IO, retryable
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "abi_cases.hpp"
#include "case_files.hpp"
#include "connection_options.hpp"
#include "subject.hpp"

namespace tapdiffgen::conformance {

struct LiveContext {
    const Subject* subject = nullptr;
    std::optional<OptionList> options;        // nullopt: TDG_CONFORMANCE_OPTIONS not set
    std::optional<std::string> setupCommand;  // nullopt: cases with setup SQL are skipped
    std::string setupOverrides;     // the <dialect> of setup.<dialect>.sql, teardown.<dialect>.sql
    std::string expectedOverrides;  // the <dialect> of expected.<dialect>.json
};

/// The cases of `casesDir`, each with its files in `overridesDir` (case_files.hpp) first.
std::vector<NamedCase> liveCases(const LiveContext& context, const std::filesystem::path& casesDir,
                                 const std::optional<std::filesystem::path>& overridesDir);

// One function per check kind.
std::string checkTable(const LiveContext& context, const CaseFiles& files);
std::string checkDiffgen(const LiveContext& context, const CaseFiles& files);
std::string checkConnectError(const LiveContext& context, const CaseFiles& files);
std::string checkMissingTable(const LiveContext& context, const CaseFiles& files);
std::string checkConnectedNullArguments(const LiveContext& context, const CaseFiles& files);
std::string checkCancel(const LiveContext& context, const CaseFiles& files);
std::string checkCancelStatement(const LiveContext& context, const CaseFiles& files);
std::string checkKeyset(const LiveContext& context, const CaseFiles& files);
std::string checkHorizon(const LiveContext& context, const CaseFiles& files);
std::string checkWaitForChange(const LiveContext& context, const CaseFiles& files);
std::string checkJournalBounds(const LiveContext& context, const CaseFiles& files);
std::string checkDescribeTables(const LiveContext& context, const CaseFiles& files);
std::string checkInspectJournal(const LiveContext& context, const CaseFiles& files);
std::string checkLostConnection(const LiveContext& context, const CaseFiles& files);

}  // namespace tapdiffgen::conformance

// inspect_journal from pg_catalog: the sequence that hands out diffgen.id and its CACHE, each
// configured table's partitions at every level, and (when asked) its row triggers that write
// into diffgen with the journal name they write. Foreign-key actions fire the child's triggers
// in PostgreSQL, so none bypasses the journal.
#pragma once

#include "session.hpp"
#include "tap-diffgen/sdk/journal_facts.hpp"

namespace tapdiffgen::postgres {

/// Two CTEs, `log` (the diffgen table $1 names, quoted as in SQL, resolved as a query resolves
/// it: its oid, schema and "id" column) and `source` (the sequence feeding that column: one its
/// DEFAULT calls nextval on, found through pg_attrdef's dependencies, else the one a serial or
/// identity column owns), for a WITH clause.
extern const char* const kIdSequenceCtes;

/// Four statements whatever the number of tables (three without triggers).
sdk::JournalInspection inspectJournal(Session& session, const sdk::JournalRequest& request);

}  // namespace tapdiffgen::postgres

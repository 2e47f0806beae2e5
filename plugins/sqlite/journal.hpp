// inspect_journal from sqlite_master: what hands out diffgen.id (sqlite_sequence for an
// AUTOINCREMENT table, else the rowid: the highest id plus one), and (when asked) each
// configured table's triggers that write into diffgen with the journal name they write.
// SQLite has no partitions, its foreign-key actions fire the child's triggers (ON DELETE
// CASCADE journals the child's deletes: tests/plugins/sqlite/test_journal.cpp), and one writer
// at a time leaves the horizon nothing to wait for; so those facts are always empty.
#pragma once

#include <string>

#include "session.hpp"
#include "tap-diffgen/sdk/journal_facts.hpp"

namespace tapdiffgen::sqlite {

/// An SQL expression, 1 when column "id" of the table ?1 of schema ?2 is its rowid (the one
/// INTEGER PRIMARY KEY column of a rowid table: SQLite hands its values out), else 0.
extern const char* const kIdIsRowidSql;

/// One statement for the id source, one per schema and 500 tables for the triggers.
sdk::JournalInspection inspectJournal(Session& database, const sdk::JournalRequest& request);

}  // namespace tapdiffgen::sqlite

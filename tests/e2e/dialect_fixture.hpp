// One journalled schema per test on a real server: a diffgen table and its triggers made by
// the shipped SQL (packaging/diffgen/), under names of the test's own so tests can run side by
// side.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "support/databases.hpp"
#include "support/tap_process.hpp"

namespace tapdiffgen::testing {

class JournalledSchema {
public:
    /// prefix: unique per test; every table and the diffgen table get it.
    JournalledSchema(const DatabaseEnv& env, const std::string& prefix);
    ~JournalledSchema();

    const DatabaseEnv& env() const { return env_; }
    bool isPostgres() const { return env_.dialect == "postgres"; }
    std::string diffgenTable() const { return prefix_ + "_diffgen"; }
    /// The shipped SQL's prune record of diffgenTable().
    std::string pruneRecordTable() const { return diffgenTable() + "_pruned"; }
    std::string table(const std::string& name) const { return prefix_ + "_" + name; }

    /// Creates `name` with columnsSql (the key column first) and journals it; keyColumn names
    /// the key column, or the columns of a composite key separated by commas.
    void createTable(const std::string& name, const std::string& columnsSql,
                     const std::string& keyColumn);
    /// Journals `table` (made by the test) with the shipped SQL's diffgen_attach, and drops it
    /// with the schema. keyColumns as createTable's; on MySQL they must be its primary key.
    void journal(const std::string& table, const std::string& keyColumns);
    /// The statement that journals `table` (journal() runs it), for a session of the test's.
    std::string attachSql(const std::string& table, const std::string& keyColumns) const;
    void exec(const std::string& sql) const;
    /// Runs the shipped SQL file again, as an upgrade does: the journal and its rows stay.
    void installAgain() const;
    /// Creates and journals table `items` (id, note) holding ids 1..rows; returns its name.
    std::string createNumberedItems(int rows);

    /// A config file selecting `tables` (name → pk column), plus extra members.
    std::string writeConfig(const ScratchDir& dir, const std::vector<std::string>& tables,
                            const std::string& extra = "") const;

private:
    DatabaseEnv env_;
    std::string prefix_;
    std::vector<std::string> created_;
    std::map<std::string, std::string> keys_;
};

/// `--config config`, and `--state` with `state` written to `dir` when it is not empty.
std::vector<std::string> argsWithState(const std::string& config, const ScratchDir& dir,
                                       const std::string& state);

/// The distinct ids of `stream`'s records in a run.
std::set<int> emittedIds(const TapRun& run, const std::string& stream);

/// The rows a target would hold after applying `records` in order (upsert by key, delete on
/// is_deleted): key → compact JSON of the record without the metadata columns.
std::map<std::string, std::string> replicaOf(const std::vector<Poco::JSON::Object::Ptr>& records,
                                             const std::string& keyColumn);

}  // namespace tapdiffgen::testing

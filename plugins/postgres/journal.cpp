#include "journal.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "array_literal.hpp"
#include "bytea_text.hpp"
#include "catalog.hpp"
#include "statement.hpp"
#include "tap-diffgen/sdk/journal_writes.hpp"

namespace tapdiffgen::postgres {

// pg_depend rows of a column default (pg_attrdef) name what its expression uses, the sequence of
// nextval('s') among them; a serial column's sequence is also owned by the column ('a') and an
// identity column's sequence belongs to it ('i'). The default comes first: it is what an INSERT
// runs.
const char* const kIdSequenceCtes = R"SQL(
log AS (
    SELECT c.oid, n.nspname, a.attnum
      FROM pg_catalog.pg_class c
      JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
      LEFT JOIN pg_catalog.pg_attribute a
             ON a.attrelid = c.oid AND a.attname = 'id' AND NOT a.attisdropped
     WHERE c.oid = pg_catalog.to_regclass($1::text)),
source AS (
    SELECT s.seqrelid, s.seqincrement, s.seqstart, s.seqcache,
           sn.nspname AS seq_schema, sc.relname AS seq_name
      FROM (SELECT d.refobjid AS oid, 1 AS rank
              FROM log
              JOIN pg_catalog.pg_attrdef ad ON ad.adrelid = log.oid AND ad.adnum = log.attnum
              JOIN pg_catalog.pg_depend d
                ON d.classid = 'pg_catalog.pg_attrdef'::pg_catalog.regclass
               AND d.objid = ad.oid
               AND d.refclassid = 'pg_catalog.pg_class'::pg_catalog.regclass
            UNION ALL
            SELECT d.objid, 2
              FROM log
              JOIN pg_catalog.pg_depend d
                ON d.refclassid = 'pg_catalog.pg_class'::pg_catalog.regclass
               AND d.refobjid = log.oid
               AND d.refobjsubid = log.attnum
               AND d.classid = 'pg_catalog.pg_class'::pg_catalog.regclass
               AND d.deptype IN ('a', 'i')) found
      JOIN pg_catalog.pg_sequence s ON s.seqrelid = found.oid
      JOIN pg_catalog.pg_class sc ON sc.oid = s.seqrelid
      JOIN pg_catalog.pg_namespace sn ON sn.oid = sc.relnamespace
     ORDER BY found.rank
     LIMIT 1)
)SQL";

namespace {

// The diffgen table's schema, and the sequence's name and CACHE; no row when the table does not
// exist, NULLs when no sequence feeds its id.
constexpr const char* kIdSourceSelect = R"SQL(
SELECT log.nspname, source.seq_schema || '.' || source.seq_name, source.seqcache::text
  FROM log LEFT JOIN source ON true
)SQL";

// Every partition below each table, at every level (pg_inherits holds one level per row).
// Legacy inheritance children are not partitions: their rows are not the parent's.
constexpr const char* kPartitions = R"SQL(
WITH RECURSIVE tree(root, relid) AS (
    SELECT i.inhparent, i.inhrelid
      FROM pg_catalog.pg_inherits i
     WHERE i.inhparent = ANY (ARRAY(SELECT unnest($1::oid[])))
    UNION ALL
    SELECT tree.root, i.inhrelid
      FROM tree JOIN pg_catalog.pg_inherits i ON i.inhparent = tree.relid)
SELECT tree.root, n.nspname, c.relname
  FROM tree
  JOIN pg_catalog.pg_class c ON c.oid = tree.relid
  JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
 WHERE c.relispartition
 ORDER BY tree.root, n.nspname, c.relname
)SQL";

// The row triggers of each table itself. A trigger of a partitioned table is cloned to its
// partitions; those clones are the partitions' rows, so each trigger is listed once, on the
// table it was created on (or, for a configured partition, the clone that fires on it).
// Each table's partition root too (the table itself when it is no partition), walked up
// pg_inherits, which every version since 10 has (pg_partition_root came with 12).
constexpr const char* kTriggers = R"SQL(
SELECT t.tgrelid, t.tgname, t.tgtype::int4, t.tgargs, p.proname, p.prosrc,
       c.relname, n.nspname, c.relkind = 'p', rc.relname, rn.nspname
  FROM pg_catalog.pg_trigger t
  JOIN pg_catalog.pg_proc p ON p.oid = t.tgfoid
  JOIN pg_catalog.pg_class c ON c.oid = t.tgrelid
  JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
  CROSS JOIN LATERAL (
      WITH RECURSIVE up (relid, depth) AS (
          SELECT c.oid, 0
          UNION ALL
          SELECT i.inhparent, up.depth + 1
            FROM up
            JOIN pg_catalog.pg_inherits i ON i.inhrelid = up.relid
            JOIN pg_catalog.pg_class child ON child.oid = up.relid AND child.relispartition)
      SELECT relid FROM up ORDER BY depth DESC LIMIT 1) root
  JOIN pg_catalog.pg_class rc ON rc.oid = root.relid
  JOIN pg_catalog.pg_namespace rn ON rn.oid = rc.relnamespace
 WHERE t.tgrelid = ANY (ARRAY(SELECT unnest($1::oid[])))
   AND (t.tgtype::int4 & 1) = 1
 ORDER BY t.tgrelid, t.tgname
)SQL";

// pg_trigger.tgtype bits (catalog/pg_trigger.h), in the order events are listed.
constexpr std::pair<int, const char*> kTriggerEvents[] = {
    {1 << 2, "INSERT"}, {1 << 4, "UPDATE"}, {1 << 3, "DELETE"}};

// Which entries of the request each found oid answers (a table may be named twice).
using EntriesByOid = std::map<std::string, std::vector<size_t>, std::less<>>;

std::string eventsOf(int type) {
    std::string events;
    for (const auto& [bit, name] : kTriggerEvents) {
        if ((type & bit) == 0) continue;
        if (!events.empty()) events += ", ";
        events += name;
    }
    return events;
}

// tgargs in bytea's hex output (\x...): each argument ends with a NUL byte.
std::vector<std::string> triggerArguments(std::string_view hex) {
    std::string bytes;
    if (!appendUnhexed(hex, bytes)) {
        throw sdk::DriverError(TDG_INTERNAL, "unexpected trigger arguments from the catalog");
    }
    std::vector<std::string> arguments;
    for (size_t from = 0, end; (end = bytes.find('\0', from)) != std::string::npos;
         from = end + 1) {
        arguments.push_back(bytes.substr(from, end - from));
    }
    return arguments;
}

bool mentions(const std::vector<sdk::SqlToken>& tokens, std::string_view word) {
    return std::any_of(tokens.begin(), tokens.end(),
                       [&](const sdk::SqlToken& token) { return token.isKeyword(word); });
}

// A row of kTriggers, named for its columns.
struct TriggerRow {
    std::string_view name;
    int type;
    std::vector<std::string> arguments;
    std::string_view function;
    std::string_view source;
    std::string_view table;
    std::string_view schema;
    bool partitioned;
    /// The partition root of the table (the table itself when it is no partition).
    std::string_view rootTable;
    std::string_view rootSchema;
};

// The shipped diffgen_journal(key_columns [, 'qualified']) (packaging/diffgen/postgres.sql)
// writes the name of the table it fires on (TG_TABLE_NAME), or schema.table with 'qualified';
// on a partition, the name of its partition root, which it looks up with pg_partition_root.
// An older copy of the function, without that lookup, writes each partition's own name: on a
// partitioned table, no one name.
std::optional<std::string> sharedFunctionName(const TriggerRow& trigger,
                                              const std::vector<sdk::SqlToken>& tokens) {
    if (trigger.function != "diffgen_journal" || !mentions(tokens, "TG_TABLE_NAME")) {
        return std::nullopt;
    }
    const bool journalsRoot = mentions(tokens, "pg_partition_root");
    if (trigger.partitioned && !journalsRoot) return std::nullopt;
    const std::string_view table = journalsRoot ? trigger.rootTable : trigger.table;
    const std::string_view schema = journalsRoot ? trigger.rootSchema : trigger.schema;
    bool qualified = trigger.arguments.size() > 1 && trigger.arguments[1] == "qualified";
    if (qualified && !mentions(tokens, "TG_TABLE_SCHEMA")) return std::nullopt;
    return qualified ? std::string(schema) + "." + std::string(table) : std::string(table);
}

// Whether the tokens hold string_to_array(TG_ARGV[0], ...): the shipped diffgen_journal's
// (under whatever name it was installed) reading of its key columns from its first argument.
bool readsKeyFromFirstArgument(const std::vector<sdk::SqlToken>& tokens) {
    for (size_t at = 0; at + 5 < tokens.size(); ++at) {
        if (tokens[at].isKeyword("string_to_array") && tokens[at + 1].isSymbol("(") &&
            tokens[at + 2].isKeyword("TG_ARGV") && tokens[at + 3].isSymbol("[") &&
            tokens[at + 4].text == "0" && tokens[at + 5].isSymbol("]")) {
            return true;
        }
    }
    return false;
}

// The shipped diffgen_journal takes the key columns as its first argument, "id" or
// "order_id,line_no", and reads them by name from the row.
std::optional<std::vector<std::string>> sharedFunctionKey(
    const TriggerRow& trigger, const std::vector<sdk::SqlToken>& tokens) {
    if (trigger.arguments.empty() || !readsKeyFromFirstArgument(tokens)) return std::nullopt;
    std::vector<std::string> columns;
    std::string_view list = trigger.arguments[0];
    for (size_t from = 0; from <= list.size();) {
        size_t end = std::min(list.find(',', from), list.size());
        std::string_view column = list.substr(from, end - from);
        while (!column.empty() && column.front() == ' ') column.remove_prefix(1);
        while (!column.empty() && column.back() == ' ') column.remove_suffix(1);
        if (column.empty()) return std::nullopt;
        columns.emplace_back(column);
        from = end + 1;
    }
    return columns;
}

// The trigger when its function writes into diffgen, with the name it writes where the source
// says: a literal in its INSERTs (a function of its own, or one generated for the table), or
// the shipped shared function's arguments.
std::optional<sdk::JournalTrigger> journalTrigger(const TriggerRow& trigger,
                                                  const sdk::TableName& diffgen) {
    const sdk::SqlSpelling spelling = sdk::SqlSpelling::postgres();
    const std::vector<sdk::SqlToken> tokens = sdk::sqlTokens(trigger.source, spelling);
    sdk::JournalWrites writes = sdk::journalWritesOf(tokens, diffgen, spelling);
    if (!writes.writes) return std::nullopt;
    sdk::JournalTrigger found;
    found.name = std::string(trigger.name);
    found.events = eventsOf(trigger.type);
    found.journalName =
        writes.journalName ? writes.journalName : sharedFunctionName(trigger, tokens);
    found.keyColumns = writes.keyColumns ? writes.keyColumns : sharedFunctionKey(trigger, tokens);
    return found;
}

// The found tables' oids as one array parameter.
Params oidArray(const EntriesByOid& entries) {
    std::vector<std::string_view> oids;
    for (const auto& entry : entries) oids.push_back(entry.first);
    Params params;
    params.add(arrayLiteral(oids), oid::kOidArray);
    return params;
}

// Sets the id source and its cache; returns diffgen with the schema it resolved to, which an
// INSERT in a trigger may name.
sdk::TableName readIdSource(Session& session, const sdk::TableName& diffgen,
                            sdk::JournalInspection& facts) {
    Params params;
    params.add(tableSql(diffgen), oid::kText);
    Result rows = execute(session, std::string("WITH ") + kIdSequenceCtes + kIdSourceSelect, params,
                          "looking up the sequence of diffgen table '" + diffgen.display() + "'");
    sdk::TableName resolved = diffgen;
    if (rows.rows() == 0) return resolved;
    resolved.schema = std::string(rows.value(0, 0));
    if (auto name = rows.optional(0, 1)) facts.idSource = std::string(*name);
    if (auto cache = rows.optional(0, 2)) facts.idCache = catalogNumber<int64_t>(*cache);
    return resolved;
}

void readPartitions(Session& session, const EntriesByOid& entries, sdk::JournalInspection& facts) {
    Result rows = execute(session, kPartitions, oidArray(entries), "looking up partitions");
    for (int row = 0; row < rows.rows(); ++row) {
        sdk::TableName partition{std::string(rows.value(row, 1)), std::string(rows.value(row, 2))};
        for (size_t entry : entries.find(rows.value(row, 0))->second) {
            facts.tables[entry].partitions.push_back(partition);
        }
    }
}

void readTriggers(Session& session, const EntriesByOid& entries, const sdk::TableName& diffgen,
                  sdk::JournalInspection& facts) {
    Result rows = execute(session, kTriggers, oidArray(entries), "looking up journal triggers");
    for (int row = 0; row < rows.rows(); ++row) {
        TriggerRow trigger{rows.value(row, 1),
                           catalogNumber<int>(rows.value(row, 2)),
                           triggerArguments(rows.value(row, 3)),
                           rows.value(row, 4),
                           rows.value(row, 5),
                           rows.value(row, 6),
                           rows.value(row, 7),
                           rows.value(row, 8) == "t",
                           rows.value(row, 9),
                           rows.value(row, 10)};
        std::optional<sdk::JournalTrigger> found = journalTrigger(trigger, diffgen);
        if (!found) continue;
        for (size_t entry : entries.find(rows.value(row, 0))->second) {
            facts.tables[entry].triggers.push_back(*found);
        }
    }
}

}  // namespace

sdk::JournalInspection inspectJournal(Session& session, const sdk::JournalRequest& request) {
    sdk::JournalInspection facts;
    facts.tables.resize(request.tables.size());
    const sdk::TableName diffgen = readIdSource(session, request.diffgen, facts);
    if (request.tables.empty()) return facts;
    EntriesByOid entries;
    const std::vector<std::optional<std::string>> oids = relationOids(session, request.tables);
    for (size_t i = 0; i < oids.size(); ++i) {
        if (oids[i]) entries[*oids[i]].push_back(i);
    }
    if (entries.empty()) return facts;
    readPartitions(session, entries, facts);
    if (request.includeTriggers) readTriggers(session, entries, diffgen, facts);
    return facts;
}

}  // namespace tapdiffgen::postgres

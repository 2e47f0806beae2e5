#include "journal.hpp"

#include <map>
#include <utility>
#include <vector>

#include "key_values.hpp"
#include "tap-diffgen/sdk/errors.hpp"
#include "tap-diffgen/sdk/journal_writes.hpp"
#include "text_query.hpp"
#include "text_row.hpp"

namespace tapdiffgen::mysql {
namespace {

// The connection's account as information_schema's GRANTEE column spells it: 'user'@'host'.
constexpr const char* kGrantee =
    "CONCAT('''', SUBSTRING_INDEX(CURRENT_USER(), '@', 1), '''@''', "
    "SUBSTRING_INDEX(CURRENT_USER(), '@', -1), '''')";

// InnoDB runs these actions on the child's rows itself, so the child's triggers never fire.
bool bypassesTriggers(std::string_view rule) {
    return rule == "CASCADE" || rule == "SET NULL" || rule == "SET DEFAULT";
}

// InnoDB's foreign key TYPE bits (dict0mem.h) for those actions, as SQL spells them.
constexpr std::pair<int, const char*> kActionBits[] = {{1, "ON DELETE CASCADE"},
                                                       {2, "ON DELETE SET NULL"},
                                                       {4, "ON UPDATE CASCADE"},
                                                       {8, "ON UPDATE SET NULL"}};

std::string joined(const std::vector<std::string>& parts) {
    std::string text;
    for (const std::string& part : parts) text += (text.empty() ? "" : ", ") + part;
    return text;
}

// "ON DELETE CASCADE, ON UPDATE SET NULL" for the rules that bypass triggers; empty for none.
std::string actionsOfRules(const std::string& deleteRule, const std::string& updateRule) {
    std::vector<std::string> actions;
    if (bypassesTriggers(deleteRule)) actions.push_back("ON DELETE " + deleteRule);
    if (bypassesTriggers(updateRule)) actions.push_back("ON UPDATE " + updateRule);
    return joined(actions);
}

std::string actionsOfType(int64_t type) {
    std::vector<std::string> actions;
    for (const auto& [bit, action] : kActionBits) {
        if ((type & bit) != 0) actions.push_back(action);
    }
    return joined(actions);
}

// A foreign key of a configured table, from KEY_COLUMN_USAGE (which shows it to anyone who may
// read the table); its actions from REFERENTIAL_CONSTRAINTS, which MariaDB shows only to a user
// holding more than SELECT on the database, else from INNODB_SYS_FOREIGN (PROCESS).
struct ForeignKey {
    std::string schema;
    std::string table;
    sdk::BypassingForeignKey key;
    bool actionsKnown = false;
};

class Inspection {
public:
    Inspection(Session& session, const Catalog& catalog, HorizonCheck& horizon,
               const sdk::JournalRequest& request)
        : session_(session), catalog_(catalog), horizon_(horizon), request_(request) {
        facts_.tables.resize(request.tables.size());
        for (size_t i = 0; i < request.tables.size(); ++i) {
            entries_[schemaOf(request.tables[i])][request.tables[i].name].push_back(i);
        }
    }

    sdk::JournalInspection run() {
        readIdSource();
        facts_.horizonProblem = horizon_.problem();
        for (const SchemaChunk& chunk : catalog_.schemaChunks(request_.tables)) readChunk(chunk);
        learnHiddenActions();
        for (const ForeignKey& key : foreignKeys_) {
            if (!key.actionsKnown || key.key.actions.empty()) continue;
            for (size_t entry : entriesOf(key.schema, key.table)) {
                facts_.tables[entry].bypassingForeignKeys.push_back(key.key);
            }
        }
        return std::move(facts_);
    }

private:
    MYSQL* connection() { return session_.handle(); }

    std::string schemaOf(const sdk::TableName& table) const {
        return table.schema.value_or(session_.database());
    }

    // The request's entries for a table information_schema named: spelled exactly so, or else
    // otherwise (names compared without regard to case).
    std::vector<size_t> entriesOf(const std::string& schema, const std::string& table) const {
        auto names = entries_.find(schema);
        return names == entries_.end() ? std::vector<size_t>() : rowsOfTable(names->second, table);
    }

    // diffgen's id column: AUTO_INCREMENT, or a DEFAULT that takes NEXT VALUE FOR a sequence.
    // Both hand out each id when a row is inserted (a MariaDB sequence's CACHE is held by the
    // server and shared by every session), so no session keeps ids between transactions.
    void readIdSource() {
        const sdk::TableName& diffgen = request_.diffgen;
        const std::string schema = schemaOf(diffgen);
        std::string sql =
            "SELECT EXTRA, COLUMN_DEFAULT FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = " +
            textLiteral(connection(), schema) +
            " AND TABLE_NAME = " + textLiteral(connection(), diffgen.name) +
            " AND COLUMN_NAME = 'id'";
        const std::string context =
            "looking up the id column of diffgen table '" + diffgen.display() + "'";
        MultiStatementQuery query(session_, sql, context);
        TextRow row(query.nextResult(context));
        if (!query.nextRow(row, context)) return;
        std::optional<sdk::TableName> sequence = sequenceOfDefault(row.bytes(1));
        if (lowerCase(row.bytes(0)).find("auto_increment") != std::string::npos) {
            facts_.idSource = schema + "." + diffgen.name + " AUTO_INCREMENT";
            facts_.idCache = 1;
        } else if (sequence) {
            facts_.idSource = sequence->display();
            facts_.idCache = 1;
        }
    }

    // The chunk's foreign keys with their actions, and (for the journal check) its triggers and
    // whether this user may see them: the current role, global or schema grants, table grants.
    std::string chunkSql(const SchemaChunk& chunk) {
        const std::string schema = textLiteral(connection(), chunk.schema);
        const std::string names = nameList(connection(), chunk.names);
        std::string sql =
            "SELECT TABLE_NAME, CONSTRAINT_NAME, REFERENCED_TABLE_SCHEMA, REFERENCED_TABLE_NAME "
            "FROM information_schema.KEY_COLUMN_USAGE WHERE TABLE_SCHEMA = " +
            schema + " AND TABLE_NAME IN " + names +
            " AND REFERENCED_TABLE_NAME IS NOT NULL AND ORDINAL_POSITION = 1"
            " ORDER BY TABLE_NAME, CONSTRAINT_NAME; "
            "SELECT TABLE_NAME, CONSTRAINT_NAME, DELETE_RULE, UPDATE_RULE "
            "FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = " +
            schema + " AND TABLE_NAME IN " + names;
        if (!request_.includeTriggers) return sql;
        const std::string grantee = std::string(" AND GRANTEE = ") + kGrantee;
        return sql +
               "; SELECT EVENT_OBJECT_TABLE, TRIGGER_NAME, EVENT_MANIPULATION, ACTION_STATEMENT, "
               "SQL_MODE FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = " +
               schema + " AND EVENT_OBJECT_TABLE IN " + names +
               " AND ACTION_ORIENTATION = 'ROW' ORDER BY EVENT_OBJECT_TABLE, ACTION_ORDER; "
               "SELECT COALESCE(CURRENT_ROLE(), 'NONE') <> 'NONE'"
               " OR EXISTS (SELECT 1 FROM information_schema.USER_PRIVILEGES"
               " WHERE PRIVILEGE_TYPE = 'TRIGGER'" +
               grantee +
               ")"
               " OR EXISTS (SELECT 1 FROM information_schema.SCHEMA_PRIVILEGES"
               " WHERE PRIVILEGE_TYPE = 'TRIGGER' AND " +
               schema + " LIKE TABLE_SCHEMA" + grantee +
               "); SELECT TABLE_NAME FROM information_schema.TABLE_PRIVILEGES"
               " WHERE PRIVILEGE_TYPE = 'TRIGGER' AND TABLE_SCHEMA = " +
               schema + grantee;
    }

    void readChunk(const SchemaChunk& chunk) {
        const std::string context = "inspecting the journalling of " +
                                    std::to_string(chunk.names.size()) + " table(s) of schema '" +
                                    chunk.schema + "'";
        MultiStatementQuery query(session_, chunkSql(chunk), context);
        readForeignKeys(query, chunk.schema, context);
        if (request_.includeTriggers) readTriggers(query, chunk, context);
    }

    void readForeignKeys(MultiStatementQuery& query, const std::string& schema,
                         const std::string& context) {
        std::map<std::pair<std::string, std::string>, size_t> byConstraint;
        TextRow keys(query.nextResult(context));
        while (query.nextRow(keys, context)) {
            ForeignKey& key = foreignKeys_.emplace_back();
            key.schema = schema;
            key.table = keys.bytes(0);
            key.key.constraintName = keys.bytes(1);
            key.key.parent = {keys.bytes(2), keys.bytes(3)};
            byConstraint[{key.table, key.key.constraintName}] = foreignKeys_.size() - 1;
        }
        TextRow rules(query.nextResult(context));
        while (query.nextRow(rules, context)) {
            auto found = byConstraint.find({rules.bytes(0), rules.bytes(1)});
            if (found == byConstraint.end()) continue;
            ForeignKey& key = foreignKeys_[found->second];
            key.key.actions = actionsOfRules(rules.bytes(2), rules.bytes(3));
            key.actionsKnown = true;
        }
    }

    void readTriggers(MultiStatementQuery& query, const SchemaChunk& chunk,
                      const std::string& context);
    void learnHiddenActions();

    Session& session_;
    const Catalog& catalog_;
    HorizonCheck& horizon_;
    const sdk::JournalRequest& request_;
    sdk::JournalInspection facts_;
    // The request's entries by schema and table name.
    std::map<std::string, std::map<std::string, std::vector<size_t>>> entries_;
    std::vector<ForeignKey> foreignKeys_;
};

// The journal triggers of one chunk's tables. MariaDB and MySQL list a table's triggers only to
// a user holding the TRIGGER privilege on it: a table that shows none while the user visibly
// lacks it is an error naming the grant, not an empty answer (a user acting through a role is
// trusted to see them).
void Inspection::readTriggers(MultiStatementQuery& query, const SchemaChunk& chunk,
                              const std::string& context) {
    sdk::TableName diffgen{request_.diffgen.schema.value_or(session_.database()),
                           request_.diffgen.name};
    std::map<std::string, std::vector<sdk::JournalTrigger>> byTable;
    TextRow row(query.nextResult(context));
    while (query.nextRow(row, context)) {
        const sdk::SqlSpelling spelling = sdk::SqlSpelling::mysql(row.bytes(4));
        sdk::JournalWrites writes = sdk::journalWritesOf(row.bytes(3), diffgen, spelling);
        if (!writes.writes) continue;
        byTable[row.bytes(0)].push_back(
            {row.bytes(1), row.bytes(2), writes.journalName, writes.keyColumns});
    }
    TextRow granted(query.nextResult(context));
    bool seesAll = false;
    while (query.nextRow(granted, context)) seesAll = granted.int64(0) != 0;
    std::map<std::string, bool> grantedTables;
    TextRow tables(query.nextResult(context));
    while (query.nextRow(tables, context)) grantedTables[tables.bytes(0)] = true;
    for (const std::string& name : chunk.names) {
        std::vector<sdk::JournalTrigger> triggers = rowsOfTable(byTable, name);
        if (triggers.empty() && !seesAll && !rowsOfTable(grantedTables, name)) {
            throw sdk::DriverError(
                TDG_UNAUTHORIZED,
                "cannot list the triggers of table '" + chunk.schema + "." + name +
                    "': they are shown only to a user with the TRIGGER privilege on it (GRANT "
                    "TRIGGER ON " +
                    quoteName(chunk.schema) + "." + quoteName(name) +
                    " TO this user, or run the check as a user who has it)");
        }
        for (size_t entry : entriesOf(chunk.schema, name)) facts_.tables[entry].triggers = triggers;
    }
}

// Foreign keys whose actions information_schema hid are read from InnoDB's own list, which
// needs PROCESS, as the horizon check does; without it they are named in one warning.
void Inspection::learnHiddenActions() {
    std::vector<ForeignKey*> hidden;
    for (ForeignKey& key : foreignKeys_) {
        if (!key.actionsKnown) hidden.push_back(&key);
    }
    if (hidden.empty()) return;
    if (!session_.isMariadb() || facts_.horizonProblem) {
        std::vector<std::string> names;
        for (const ForeignKey* key : hidden) {
            names.push_back(key->key.constraintName + " of " + key->schema + "." + key->table);
        }
        session_.warn("cannot tell whether foreign keys " + joined(names) +
                      " cascade without firing triggers: information_schema shows their "
                      "actions only to a user with more than SELECT on the database, and "
                      "INNODB_SYS_FOREIGN only with the PROCESS privilege");
        return;
    }
    std::map<std::string, ForeignKey*> byId;
    std::vector<std::string> ids;
    for (ForeignKey* key : hidden) {
        ids.push_back(key->schema + "/" + key->key.constraintName);
        byId[ids.back()] = key;
    }
    const std::string context = "reading foreign keys from INNODB_SYS_FOREIGN";
    MultiStatementQuery query(session_,
                              "SELECT ID, TYPE FROM information_schema.INNODB_SYS_FOREIGN WHERE "
                              "ID IN " +
                                  nameList(connection(), ids),
                              context);
    TextRow row(query.nextResult(context));
    while (query.nextRow(row, context)) {
        auto found = byId.find(row.bytes(0));
        if (found == byId.end()) continue;
        found->second->key.actions = actionsOfType(row.int64(1));
        found->second->actionsKnown = true;
    }
}

}  // namespace

std::optional<sdk::TableName> sequenceOfDefault(std::string_view columnDefault) {
    const sdk::SqlSpelling spelling = sdk::SqlSpelling::mysql("");
    std::vector<sdk::SqlToken> tokens = sdk::sqlTokens(columnDefault, spelling);
    bool qualified = tokens.size() == 6;
    if ((tokens.size() != 4 && !qualified) || !tokens[0].isKeyword("nextval") ||
        !tokens[1].isSymbol("(") || !tokens.back().isSymbol(")") ||
        (qualified && !tokens[3].isSymbol("."))) {
        return std::nullopt;
    }
    const sdk::SqlToken& name = tokens[qualified ? 4 : 2];
    if (!name.isName() || (qualified && !tokens[2].isName())) return std::nullopt;
    sdk::TableName sequence;
    if (qualified) sequence.schema = tokens[2].text;
    sequence.name = name.text;
    return sequence;
}

sdk::JournalInspection inspectJournal(Session& session, const Catalog& catalog,
                                      HorizonCheck& horizon, const sdk::JournalRequest& request) {
    return Inspection(session, catalog, horizon, request).run();
}

}  // namespace tapdiffgen::mysql

#include "dialect_fixture.hpp"

#include <Poco/JSON/Stringifier.h>

#include <cctype>
#include <fstream>
#include <sstream>

namespace tapdiffgen::testing {
namespace {

std::string readSql(const std::string& name) {
    std::ifstream file(std::string(TDG_DIFFGEN_SQL_DIR) + "/" + name);
    std::stringstream content;
    content << file.rdbuf();
    return content.str();
}

// The documented SQL with every diffgen* object renamed to the test's own.
std::string renamed(const std::string& sql, const std::string& prefix) {
    std::string out;
    const std::string word = "diffgen";
    size_t from = 0;
    for (size_t at = sql.find(word); at != std::string::npos; at = sql.find(word, at + 1)) {
        bool wordStart = at == 0 || !(std::isalnum(static_cast<unsigned char>(sql[at - 1])) ||
                                      sql[at - 1] == '_');
        if (!wordStart) continue;
        out.append(sql, from, at - from);
        out += prefix + "_";
        from = at;
    }
    return out + sql.substr(from);
}

std::vector<std::string> keyColumnsOf(const std::string& keyColumns) {
    std::vector<std::string> names;
    std::stringstream list(keyColumns);
    for (std::string name; std::getline(list, name, ',');) names.push_back(name);
    return names;
}

bool blank(const std::string& sql) {
    std::stringstream lines(sql);
    for (std::string line; std::getline(lines, line);) {
        const size_t text = line.find_first_not_of(" \t\r");
        if (text != std::string::npos && line.compare(text, 2, "--") != 0) return false;
    }
    return true;
}

// The statements of a MySQL script as the mysql client sends them: `DELIMITER x` lines switch
// the delimiter; a part under ';' is sent whole (the connection takes several statements).
std::vector<std::string> mysqlStatements(const std::string& script) {
    std::vector<std::string> statements;
    std::string delimiter = ";";
    std::string part;
    const auto flush = [&] {
        if (delimiter == ";") {
            statements.push_back(part);
        } else {
            size_t from = 0;
            for (size_t at; (at = part.find(delimiter, from)) != std::string::npos;) {
                statements.push_back(part.substr(from, at - from));
                from = at + delimiter.size();
            }
            statements.push_back(part.substr(from));
        }
        part.clear();
    };
    std::stringstream lines(script);
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("DELIMITER ", 0) == 0) {
            flush();
            delimiter = line.substr(sizeof("DELIMITER ") - 1);
            continue;
        }
        part += line + "\n";
    }
    flush();
    std::erase_if(statements, blank);
    return statements;
}

}  // namespace

JournalledSchema::JournalledSchema(const DatabaseEnv& env, const std::string& prefix)
    : env_(env), prefix_(prefix) {
    // The prune record outlives the log it belongs to; a record of an earlier run would count
    // ids of this one as pruned.
    exec("DROP TABLE IF EXISTS " + pruneRecordTable());
    if (isPostgres()) {
        exec("DROP TABLE IF EXISTS " + diffgenTable() + " CASCADE");
        exec(renamed(readSql("postgres.sql"), prefix_));
    } else {
        exec("DROP TABLE IF EXISTS " + diffgenTable());
        for (const auto& statement : mysqlStatements(renamed(readSql("mysql.sql"), prefix_))) {
            exec(statement);
        }
    }
}

JournalledSchema::~JournalledSchema() {
    try {
        if (isPostgres()) {
            // The tables' own trigger functions, then the shipped ones (diffgen_* renamed).
            const std::string detach = "SELECT " + prefix_ + "_diffgen_detach(tgrelid) ";
            for (const auto& table : created_) {
                exec(detach + "FROM pg_trigger WHERE tgrelid = to_regclass('" + table +
                     "') AND tgname = '" + prefix_ + "_diffgen'");
            }
            const std::string shipped = "proname LIKE '" + prefix_ + "\\_diffgen\\_%'";
            exec("DO $$ DECLARE f regprocedure; BEGIN FOR f IN SELECT oid FROM pg_proc WHERE " +
                 shipped + " AND pronamespace = current_schema()::regnamespace LOOP " +
                 "EXECUTE format('DROP FUNCTION %s CASCADE', f); END LOOP; END $$");
        } else {
            exec("DROP VIEW IF EXISTS " + prefix_ + "_diffgen_triggers");
            exec("DROP PROCEDURE IF EXISTS " + prefix_ + "_diffgen_attach");
            exec("DROP PROCEDURE IF EXISTS " + prefix_ + "_diffgen_upgrade_triggers");
        }
        for (const auto& table : created_) exec("DROP TABLE IF EXISTS " + table);
        exec("DROP TABLE IF EXISTS " + diffgenTable());
        exec("DROP TABLE IF EXISTS " + pruneRecordTable());
    } catch (...) {
        // Leftovers are dropped by the next run's constructor.
    }
}

void JournalledSchema::exec(const std::string& sql) const { tapdiffgen::testing::exec(env_, sql); }

void JournalledSchema::installAgain() const {
    if (isPostgres()) {
        exec(renamed(readSql("postgres.sql"), prefix_));
        return;
    }
    for (const auto& statement : mysqlStatements(renamed(readSql("mysql.sql"), prefix_))) {
        exec(statement);
    }
}

void JournalledSchema::createTable(const std::string& name, const std::string& columnsSql,
                                   const std::string& keyColumn) {
    const std::string full = table(name);
    exec("DROP TABLE IF EXISTS " + full);
    exec("CREATE TABLE " + full + " (" + columnsSql + ")");
    journal(full, keyColumn);
}

std::string JournalledSchema::attachSql(const std::string& table,
                                        const std::string& keyColumns) const {
    if (isPostgres()) {
        return "SELECT " + prefix_ + "_diffgen_attach('" + table + "', '" + keyColumns + "')";
    }
    return "CALL " + prefix_ + "_diffgen_attach('" + table + "')";
}

void JournalledSchema::journal(const std::string& table, const std::string& keyColumns) {
    exec(attachSql(table, keyColumns));
    created_.push_back(table);
    keys_[table] = keyColumns;
}

std::string JournalledSchema::createNumberedItems(int rows) {
    createTable("items", "id INTEGER PRIMARY KEY, note VARCHAR(20)", "id");
    const std::string items = table("items");
    std::string values;
    for (int id = 1; id <= rows; ++id) {
        values += (id > 1 ? ",(" : "(") + std::to_string(id) + ",'n')";
    }
    exec("INSERT INTO " + items + " VALUES " + values);
    return items;
}

std::set<int> emittedIds(const TapRun& run, const std::string& stream) {
    std::set<int> ids;
    for (const auto& record : run.records(stream)) ids.insert(record->getValue<int>("id"));
    return ids;
}

std::string JournalledSchema::writeConfig(const ScratchDir& dir,
                                          const std::vector<std::string>& tables,
                                          const std::string& extra) const {
    std::string json =
        env_.configPrefix() + R"(,"diffgen_table":")" + diffgenTable() + R"(","tables":[)";
    for (size_t i = 0; i < tables.size(); ++i) {
        if (i > 0) json += ",";
        std::string key;
        for (const auto& column : keyColumnsOf(keys_.at(tables[i]))) {
            key += (key.empty() ? "\"" : ",\"") + column + "\"";
        }
        if (keys_.at(tables[i]).find(',') != std::string::npos) key = "[" + key + "]";
        json += R"({"table_name":")" + tables[i] + R"(","pk_column":)" + key + "}";
    }
    json += "]" + (extra.empty() ? "" : "," + extra) + "}";
    return dir.write("config.json", json);
}

std::vector<std::string> argsWithState(const std::string& config, const ScratchDir& dir,
                                       const std::string& state) {
    std::vector<std::string> args = {"--config", config};
    if (!state.empty()) {
        args.push_back("--state");
        args.push_back(dir.write("state.json", state));
    }
    return args;
}

std::map<std::string, std::string> replicaOf(const std::vector<Poco::JSON::Object::Ptr>& records,
                                             const std::string& keyColumn) {
    std::map<std::string, std::string> replica;
    for (const auto& record : records) {
        std::string key = record->get(keyColumn).toString();
        if (record->getValue<bool>("is_deleted")) {
            replica.erase(key);
            continue;
        }
        Poco::JSON::Object copy(*record);
        copy.remove("is_deleted");
        copy.remove("_sdc_diffgen_ts_created");
        copy.remove("_sdc_deleted_at");
        std::ostringstream text;
        copy.stringify(text);
        replica[key] = text.str();
    }
    return replica;
}

}  // namespace tapdiffgen::testing
